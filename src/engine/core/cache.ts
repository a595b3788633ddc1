import type {AccountStore, SharedKind} from '../ports/store.js'

/**
 * A value loaded from the store and kept until the store's change feed says one of the kinds
 * (or settings) it derives from changed, on any instance. The next read then loads it again.
 * It hears only the notices every instance hears ('shared'): a kind it watches is one of SHARED_KINDS.
 */
export class StoreCache<T> {
  private value: T | undefined
  private loading: Promise<T> | undefined
  private generation = 0

  constructor(
    store: AccountStore,
    private readonly load: () => Promise<T>,
    /** kinds: only those every instance hears of (SHARED_KINDS) */
    watch: {kinds?: readonly SharedKind[]; settingPrefix?: string},
  ) {
    store.onChange((n) => {
      const hit = watch.kinds?.some((k) => n.kinds.has(k)) || (watch.settingPrefix !== undefined && n.settings.some((s) => s.startsWith(watch.settingPrefix!)))
      if (hit) this.invalidate()
    }, 'shared')
  }

  invalidate(): void {
    this.generation++
    this.value = undefined
    this.loading = undefined
  }

  /** The value when it is loaded and current, without waiting (undefined otherwise). */
  peek(): T | undefined {
    return this.value
  }

  async get(): Promise<T> {
    if (this.value !== undefined) return this.value
    if (!this.loading) {
      const gen = this.generation
      this.loading = this.load().then(
        (v) => {
          if (gen === this.generation) this.value = v
          return v
        },
        (e: unknown) => {
          // a failed load (the store unreachable) is not kept: the next read tries again
          if (gen === this.generation) this.loading = undefined
          throw e
        },
      )
    }
    return this.loading
  }
}
