// @oclif/plugin-autocomplete's `autocomplete script` command (see ./shared/plugin.ts).
import {autocompleteCommand} from './shared/plugin.js'

export default await autocompleteCommand('script.js')
