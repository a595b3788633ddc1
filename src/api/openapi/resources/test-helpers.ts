// Test helpers (test keys only): the engine clock, and snapshots of an account's whole state.
// (The stand-ins for the customer, the network and the operator are with their resources.)
import {body, int, obj, q, required, dateTime, type Family} from '../kit.js'
import {MAX_ADVANCE_S} from '../../clock-steps.js'

export const family: Family = {
  responses: () => ({
    Snapshot: obj(
      {
        object: {type: 'string', const: 'snapshot'},
        format: {type: 'string', const: 'gw.snapshot'},
        version: {type: 'integer', minimum: 1},
        account: {type: 'string'},
        livemode: {type: 'boolean'},
        created_at: dateTime('Wall-clock time of the save.'),
        engine_time: dateTime("The account's engine clock at the save; loading restores it."),
        rows: {
          type: 'object',
          description: 'Every row of the account but its keys and account objects: objects (with versions and internal parts), events (their exact bytes), timeline jobs, idempotency records, provider statistics, settings (the test clock among them). Documented in docs/api.md "Snapshots".',
          properties: {objects: {type: 'array'}, events: {type: 'array'}, jobs: {type: 'array'}, idempotency: {type: 'array'}, stats: {type: 'array'}, settings: {type: 'object'}},
          required: ['objects', 'events', 'jobs', 'idempotency', 'stats', 'settings'],
        },
      },
      {description: "An account's whole state as one document; keys and accounts are never in it."},
    ),
    SnapshotLoad: obj(
      {
        object: {type: 'string', const: 'snapshot_load'},
        from_account: {type: 'string'},
        objects: {type: 'integer', minimum: 0},
        events: {type: 'integer', minimum: 0},
        jobs: {type: 'integer', minimum: 0},
        idempotency_keys: {type: 'integer', minimum: 0},
        new_webhook_secrets: {type: 'integer', minimum: 0, description: 'Webhook endpoints the snapshot holds without their signing secret (saved without include_secrets): each got a new secret, shown by rotating it (POST /webhook_endpoints/{id}/rotate_secret).'},
        engine_time: dateTime("The account's engine clock once loaded."),
      },
      {description: 'What a snapshot load replaced the account\'s state with.'},
    ),
    TestClock: obj(
      {
        object: {type: 'string', const: 'test_clock'},
        now: dateTime(),
        offset_seconds: {type: 'integer', minimum: 0},
        fired: {
          type: 'object',
          description: 'Advance only: what it set off — events the clock caused, by type, plus payout.created and payout.paid, and webhook.delivery_attempt: with `wait`, every webhook attempt made at an engine time inside the stretch (catch-up retries included); without it, the attempts due when it answered, one per delivery (docs/api.md#clock-fired).',
          additionalProperties: {type: 'integer', minimum: 1},
        },
        frozen: {type: 'boolean', description: 'Frozen: the clock moves only when advanced or set (POST /test_helpers/clock).'},
        pending_attempts: {type: 'integer', minimum: 1, description: 'Advance with `wait` only, when 30 s were not enough: webhook attempts still due (a receiver that does not answer takes 10 s per attempt).'},
      },
      {optional: ['fired', 'pending_attempts']},
    ),
  }),
  requests: () => ({
    SnapshotBody: body(
      {
        object: {type: 'string', const: 'snapshot'},
        format: {type: 'string', description: "'gw.snapshot'"},
        version: {type: 'integer', description: 'The snapshot format version (1); other versions are refused by name.'},
        account: {type: 'string'},
        livemode: {type: 'boolean'},
        created_at: {type: 'string'},
        engine_time: {type: 'string'},
        rows: {type: 'object', description: 'The account\'s rows as saved (docs/api.md "Snapshots"); checked by the engine, not by this schema.'},
      },
      'A snapshot as GET /test_helpers/snapshot answered it.',
    ),
    TestClockSet: body({
      frozen: {type: 'boolean', description: 'Freeze the clock where it stands (or at now), or let it tick again.'},
      now: {type: 'string', format: 'date-time', description: 'Set the clock to this instant: the current engine time or later (the clock never moves back), at most 400 days later (as an advance: the jobs due in between run before the answer).'},
    }),
    TestClockAdvance: body({
      seconds: required(int(1, MAX_ADVANCE_S, '(whole seconds to move the engine clock forward)')),
      wait: {type: 'boolean', description: 'Answer only once every webhook attempt the advance made due (retries included) has ended and been recorded, up to 30 s; default false (the attempts follow the answer within milliseconds).'},
    }),
  }),
  operations: [
    {id: 'testGetClock', perm: 'test_helpers:read', method: 'get', path: '/test_helpers/clock', tag: 'Test helpers', summary: 'Read the engine clock', testHelper: true, response: 'TestClock', responseDescription: 'The engine clock.'},
    {id: 'testSetClock', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/clock', tag: 'Test helpers', summary: 'Freeze, unfreeze or set the engine clock', body: 'TestClockSet', bodyRequired: true, testHelper: true,
      description: 'Frozen, the clock moves only when advanced or set, so a test run that starts from a fixed instant gets the same timestamps every time; unfrozen, it ticks on from where it stood. `now` sets it to that instant or later (earlier is 400: the clock never moves back). Jobs that fell due run before the answer.', response: 'TestClock', responseDescription: 'The engine clock.'},
    {id: 'testAdvanceClock', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/clock/advance', tag: 'Test helpers', summary: 'Advance the engine clock', body: 'TestClockAdvance', bodyRequired: true, testHelper: true,
      description: 'Moves the engine clock forward and runs every job that became due, in due order.', response: 'TestClock', responseDescription: 'The engine clock after the advance.'},
    {id: 'testSaveSnapshot', perm: 'test_helpers:read', method: 'get', path: '/test_helpers/snapshot', tag: 'Test helpers', summary: "Save the account's whole state as a snapshot", testHelper: true,
      query: [q('include_secrets', {type: 'boolean'}, "true: the webhook endpoints' signing secrets and full card numbers too (sensitive; a secret key only, else 403). Without it endpoints have no secret (a load gives each a new one) and card numbers are masked but for the published test cards.")],
      description: 'Objects, events, timeline jobs, idempotency records, provider statistics and settings (the test clock among them), read at one moment; not its keys, and without signing secrets and card numbers unless include_secrets=true. Written out as it is read (chunked). One read of the snapshot of an account at a time: another while one is written out → 429 with Retry-After. Load it with POST /test_helpers/snapshot into this account or another.', response: 'Snapshot', responseDescription: 'The snapshot.'},
    {id: 'testLoadSnapshot', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/snapshot', tag: 'Test helpers', summary: "Replace the account's state with a snapshot", body: 'SnapshotBody', bodyRequired: true, testHelper: true,
      description: "Replaces every object, event, job, idempotency record, statistic and setting of the account (not its keys) with the snapshot's, in one transaction, and sets its clock to the snapshot's (back any distance, forward at most 400 days after the account's engine time, as POST /test_helpers/clock may: further → 400 naming the setting). Every row is checked as the API would check it: the first bad one → 400 naming its path (rows.objects[3].obj.amount), nothing changed. Bodies up to the engine's snapshot limit (64 MiB unless gw serve --snapshot-max-bytes says otherwise; over it → 413 naming the limit). An unknown format or version → 400 naming it.", response: 'SnapshotLoad', responseDescription: 'What was loaded.'},
  ],
}
