// @oclif/plugin-autocomplete's `autocomplete` command (see src/base/plugin-commands.ts).
import {autocompleteCommand} from '../../base/plugin-commands.js'

export default await autocompleteCommand('index.js')
