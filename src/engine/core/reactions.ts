// How a use case reacts to another's change without importing it back (docs/decisions.md#one-contract-and-the-layers): the one that
// changes a payment announces it on its unit's core; one that cares (a checkout session learning
// of its payment) registers when its account's core is made (app/index.ts registerJobs). The
// reactions run in the same unit of work, so what they write commits with the change.
import type {PaymentRecord} from '../domain/payment.js'
import type {Unit} from './unit.js'

type PaymentReaction = (u: Unit, p: PaymentRecord) => Promise<void>

export class Reactions {
  private readonly payment: PaymentReaction[] = []

  /** `react` runs whenever a payment changed in a unit of work (after it was put). */
  onPaymentChanged(react: PaymentReaction): void {
    this.payment.push(react)
  }

  async paymentChanged(u: Unit, p: PaymentRecord): Promise<void> {
    for (const react of this.payment) await react(u, p)
  }
}
