// Evidence drafts on disk: one file per dispute under the config dir, 0600 in a 0700 folder,
// read back as written, an empty draft removes the file, and a removed draft is gone.
import {mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {DraftStore, draftSummary} from './drafts.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

describe('DraftStore', () => {
  it('keeps a draft per dispute under the config dir, readable by its owner only, until removed', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-drafts-'))
    dirs.push(root)
    const store = new DraftStore(root, 'support', () => 1_000)
    expect(store.load('dp_1')).toBeUndefined()
    store.save('dp_1', {fields: {shipping_address: '1 Main St\nSpringfield'}, files: ['https://shop.example/pod.pdf'], typing: {key: 'tracking_number', text: '1Z9'}})
    const dir = join(root, 'console-drafts', 'support')
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'dp_1.json')).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['dp_1.json'])
    expect(new DraftStore(root, 'support').load('dp_1')).toEqual({
      dispute: 'dp_1',
      fields: {shipping_address: '1 Main St\nSpringfield'},
      files: ['https://shop.example/pod.pdf'],
      typing: {key: 'tracking_number', text: '1Z9'},
      saved_at: 1_000,
    })
    // another profile has drafts of its own
    expect(new DraftStore(root, 'default').load('dp_1')).toBeUndefined()
    // nothing left in it: no draft
    store.save('dp_1', {fields: {}, files: []})
    expect(store.load('dp_1')).toBeUndefined()
    store.save('dp_1', {fields: {a: 'b'}, files: []})
    store.remove('dp_1')
    expect(readdirSync(dir)).toEqual([])
  })

  it('reads a damaged or foreign file as no draft, and keeps drafts in memory without a config dir', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-drafts-'))
    dirs.push(root)
    const store = new DraftStore(root, 'default')
    store.save('dp_2', {fields: {a: 'b'}, files: []})
    writeFileSync(join(root, 'console-drafts', 'default', 'dp_2.json'), '{not json')
    expect(store.load('dp_2')).toBeUndefined()
    writeFileSync(join(root, 'console-drafts', 'default', 'dp_2.json'), JSON.stringify({dispute: 'dp_other', fields: {}, files: []}))
    expect(store.load('dp_2')).toBeUndefined()
    const memory = new DraftStore(undefined, 'default')
    memory.save('dp_3', {fields: {a: 'b'}, files: []})
    expect(memory.load('dp_3')?.fields).toEqual({a: 'b'})
    expect(draftSummary({fields: {a: 'b', c: 'd'}, files: ['x'], typing: {key: 'e', text: 'f'}})).toBe('2 fields (a, c), 1 file, a value being typed for e')
  })
})
