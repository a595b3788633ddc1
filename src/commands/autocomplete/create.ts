// @oclif/plugin-autocomplete's `autocomplete create` command (see ./shared/plugin.ts).
import {autocompleteCommand} from './shared/plugin.js'

export default await autocompleteCommand('create.js')
