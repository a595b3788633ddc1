// @oclif/plugin-autocomplete's `autocomplete` command (see ./shared/plugin.ts).
import {autocompleteCommand} from './shared/plugin.js'

export default await autocompleteCommand('index.js')
