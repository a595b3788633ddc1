import {Command} from '@oclif/core'

export default class Hello extends Command {
  static description = 'say hello'
  async run() {
    this.log('hello')
  }
}
