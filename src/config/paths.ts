// Where the CLI keeps its files: $XDG_CONFIG_HOME/gw (default ~/.config/gw).
import {homedir} from 'node:os'
import {join} from 'node:path'

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config')
  return join(base, 'gw')
}

export const configFile = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'config.json')
export const credentialsFile = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'credentials.json')
