// Text a tenant could store to take over whoever reads it in a terminal: a screen
// clear, an OSC title, a carriage-return overwrite, C1's CSI and a right-to-left override, and how gw shows it.
export const HOSTILE = 'Ada\u001b[2J\u001b]0;pwned\u0007\rEve\u009b31m\u202e'
export const SHOWN = 'Ada^[[2J^[]0;pwned^G^MEve^[[31m<U+202E>'
/** any of them sent as is */
export const RAW_CONTROL = /\u001b\[2J|\u001b\]0;|\rEve|\u009b|\u202e/
