// @oclif/plugin-autocomplete's `autocomplete create` command (see src/base/plugin-commands.ts).
import {autocompleteCommand} from '../../base/plugin-commands.js'

export default await autocompleteCommand('create.js')
