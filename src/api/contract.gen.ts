// Generated from the OpenAPI document (src/api/openapi/) by `npm run contract` (src/api/openapi/generate.ts): do not edit.
// contract.test.ts fails when this file is stale.

export interface paths {
    "/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List payments */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Creates and (unless `confirm: false`) routes the payment in one call. Risk blocks, exhausted failover, no eligible provider and rule blocks answer 201 with `status: failed`; only an issuer's final decline is 402 card_error, with `error.payment` naming the stored failed payment.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment */
        get: operations["retrievePayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/routing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Explain how a payment was routed
         * @description Every routing pass as the router decided it then (providers considered and why some were excluded, the rule that matched or smart routing, each candidate's score with its parts, the order), and every provider attempt with its decline class (soft: the next provider was tried; final: routing stopped). Passes are recorded from the version that added this operation on.
         */
        get: operations["retrievePaymentRouting"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a payment
         * @description Routes a payment in `requires_confirmation`; any other state is 400 payment_unexpected_state. Also callable from a browser with a publishable key (the hosted card fields' `confirmPayment`) with `payment_method_id` only; answers to a publishable key carry `Access-Control-Allow-Origin: *`.
         */
        post: operations["confirmPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture a payment
         * @description Captures all or part of a `requires_capture` authorization; otherwise 400 payment_not_capturable. 502 provider_error when the provider does not confirm (retry with the same Idempotency-Key).
         */
        post: operations["capturePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/increment_authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Increment an authorization
         * @description Raises the authorized total of a `requires_capture` card payment on a network that supports it; otherwise 400 payment_not_incrementable. An issuer decline of the increment is 402 and leaves the authorization unchanged.
         */
        post: operations["incrementAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payment
         * @description Voids a payment in requires_confirmation, requires_action or requires_capture; otherwise 400 payment_not_cancelable. After partial captures the authorization closes as succeeded with what was captured (payment.succeeded) and only the remainder is released.
         */
        post: operations["cancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/payments/{id}/action": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Act as the customer on the hosted page
         * @description approve, fail or abandon the current customer step (3-D Secure, redirect, QR, voucher paid); a payment without one is 400 payment_unexpected_state.
         */
        post: operations["testPaymentAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/payments/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decide a risk review as the operator */
        post: operations["testPaymentReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List customers */
        get: operations["listCustomers"];
        put?: never;
        /** Create a customer */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a customer */
        get: operations["retrieveCustomer"];
        put?: never;
        /**
         * Update a customer
         * @description Sets the given fields; metadata is merged.
         */
        post: operations["updateCustomer"];
        /** Delete a customer */
        delete: operations["deleteCustomer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment_methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List payment methods */
        get: operations["listPaymentMethods"];
        put?: never;
        /**
         * Save a card as a payment method
         * @description Also callable from a browser with a publishable key (the hosted card fields of {checkout_url}/gw.js do so; answers carry `Access-Control-Allow-Origin: *` for any origin), without `customer` (403: attaching needs a secret key).
         */
        post: operations["createPaymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment_methods/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment method */
        get: operations["retrievePaymentMethod"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment_methods/{id}/detach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Detach a payment method from its customer
         * @description A payment method attached to no customer is 400 payment_method_not_attached.
         */
        post: operations["detachPaymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout_sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List checkout sessions */
        get: operations["listCheckoutSessions"];
        put?: never;
        /**
         * Create a hosted checkout session
         * @description A page on {checkout_url} (`url`) where the customer pays `amount` with one of `payment_methods` (default: every method that takes the currency and has a customer page; direct debits need mandate data the page does not collect). A declined card or a failed step lets the customer try again; each try is a payment linked to the session. The session completes when a payment succeeds or is processing (`checkout.session.completed`), and expires at `expires_at` (`checkout.session.expired`; default a day, 30 minutes at the least). The customer returns to `success_url` with `session` and `payment` added, or to `cancel_url` with `session`; the return only signals that the customer came back: the webhook tells the outcome.
         */
        post: operations["createCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout_sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a checkout session */
        get: operations["retrieveCheckoutSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout_sessions/{id}/expire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Expire an open checkout session
         * @description Ends an open session now (`checkout.session.expired`); its page then says it has expired. A complete or expired session is 400 checkout_session_not_open.
         */
        post: operations["expireCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout_sessions/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay an open checkout session with a saved card
         * @description One try at paying the session: a payment of it (its amount, currency, reference, customer and metadata) with the card `payment_method_id` holds, as a try on its hosted page is. The hosted card fields' `confirmCheckoutSession` calls it with the publishable key (the session id is the capability, as a payment's id is for `confirmPayment`); a secret key may too. A decline is 402 card_error with `error.payment`, and the session stays open for another card; a payment that succeeds completes the session (`checkout.session.completed`). A try that needs 3-D Secure answers `requires_action`; an earlier try still waiting for its customer step is canceled, so two tries never both succeed. A complete or expired session is 400 checkout_session_not_open.
         */
        post: operations["payCheckoutSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List refunds */
        get: operations["listRefunds"];
        put?: never;
        /**
         * Refund a payment
         * @description Full or partial refund of a succeeded payment, routed to the provider that processed it; pending until the rail answers (refund.succeeded / refund.failed). Codes: payment_not_refundable, payment_disputed, partial_refund_unsupported, amount_too_large.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a refund */
        get: operations["retrieveRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List disputes */
        get: operations["listDisputes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a dispute */
        get: operations["retrieveDispute"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit evidence
         * @description Only on a dispute in needs_response (else 400 dispute_not_actionable); moves it to under_review.
         */
        post: operations["submitDisputeEvidence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/disputes/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept a dispute
         * @description Only on a dispute in needs_response (else 400 dispute_not_actionable); final.
         */
        post: operations["acceptDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/disputes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a dispute as the card network
         * @description Only succeeded card-family payments (else 400 payment_not_disputable), once per payment (payment_already_disputed).
         */
        post: operations["testCreateDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/disputes/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rule on a dispute as the issuer or network */
        post: operations["testResolveDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description The immutable event log of the last 30 days (engine clock); events are served as the exact bytes webhooks deliver.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream events (Server-Sent Events)
         * @description New events as Server-Sent Events (`id:`, `event:` = the type, `data:` = the event JSON), a heartbeat comment every 15 s. With `Last-Event-ID` (header or query) it first replays what followed that event; an unknown one is 400 so the client backfills with GET /events instead. An account holds at most 20 streams open on an instance (this one and GET /request_logs/stream together; gw serve --max-event-streams): 429 beyond, with Retry-After.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event */
        get: operations["retrieveEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an event's webhook deliveries */
        get: operations["listEventDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend an event to webhook endpoints
         * @description New deliveries of the same event bytes with a fresh 72 h retry window: to `endpoint`; else to every enabled subscribed endpoint that has not received it (a 2xx to an earlier delivery), or to all of them with `all: true` (none subscribed → 400 no_webhook_endpoints; all received it → 400 event_already_delivered). A disabled endpoint is 400 webhook_endpoint_disabled.
         */
        post: operations["resendEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description At most 16 per mode (400 webhook_endpoint_limit). The signing secret is returned here only.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook endpoint */
        get: operations["retrieveWebhookEndpoint"];
        put?: never;
        /** Update a webhook endpoint */
        post: operations["updateWebhookEndpoint"];
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description A new secret, which alone signs from now on (one v1 in the signature header). With `expires_in` the previous one keeps signing alongside it for that long (a second v1), so a deployed receiver keeps verifying until it has the new one.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an endpoint every event it missed since a time
         * @description Recovery after an outage, in one transaction: of the endpoint's deliveries created since `since` (or within the last `within` seconds of engine time) in `status` (default failed_retrying and undeliverable), those still retrying are made due now and those that gave up get a new delivery with a fresh 72 h window — one per event; events the endpoint received (a 2xx) are skipped, and so are events past retention. At most 10,000 deliveries (400 replay_too_large). A disabled endpoint is 400 webhook_endpoint_disabled.
         */
        post: operations["replayWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an endpoint's deliveries */
        get: operations["listWebhookEndpointDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook delivery */
        get: operations["retrieveWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List providers */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a provider */
        get: operations["retrieveProvider"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/routing/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Simulate a routing decision
         * @description The decision routing would make now for a payment like this, with the current provider health, 7-day authorization rates and routing rules; creates nothing. A split rule draws as a payment would.
         */
        get: operations["simulateRouting"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/providers/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Force a provider's health */
        post: operations["testSetProviderHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sub-merchants */
        get: operations["listMerchants"];
        put?: never;
        /**
         * Onboard a sub-merchant
         * @description KYB review completes 60 s (engine clock) after the merchant has a legal name and country.
         */
        post: operations["createMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a sub-merchant */
        get: operations["retrieveMerchant"];
        put?: never;
        /** Update a sub-merchant */
        post: operations["updateMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/routing_rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List routing rules */
        get: operations["listRoutingRules"];
        put?: never;
        /** Create a routing rule */
        post: operations["createRoutingRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/routing_rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a routing rule */
        get: operations["retrieveRoutingRule"];
        put?: never;
        /** Update a routing rule */
        post: operations["updateRoutingRule"];
        /** Delete a routing rule */
        delete: operations["deleteRoutingRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the balance */
        get: operations["retrieveBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlement_reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List settlement reports */
        get: operations["listSettlementReports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlement_reports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a settlement report (JSON or CSV)
         * @description JSON by default; `Accept: text/csv` returns one CSV row per line: report, date, provider, type, payment, reference, amount (minor units), currency, rate, converted_amount, converted_currency, created_at.
         */
        get: operations["retrieveSettlementReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List payouts */
        get: operations["listPayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payout */
        get: operations["retrievePayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the engine clock */
        get: operations["testGetClock"];
        put?: never;
        /**
         * Freeze, unfreeze or set the engine clock
         * @description Frozen, the clock moves only when advanced or set, so a test run that starts from a fixed instant gets the same timestamps every time; unfrozen, it ticks on from where it stood. `now` sets it to that instant or later (earlier is 400: the clock never moves back). Jobs that fell due run before the answer.
         */
        post: operations["testSetClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance the engine clock
         * @description Moves the engine clock forward and runs every job that became due, in due order.
         */
        post: operations["testAdvanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Save the account's whole state as a snapshot
         * @description Objects, events, timeline jobs, idempotency records, provider statistics and settings (the test clock among them), read at one moment; not its keys, and without signing secrets and card numbers unless include_secrets=true. Written out as it is read (chunked). One read of the snapshot of an account at a time: another while one is written out → 429 with Retry-After. Load it with POST /test_helpers/snapshot into this account or another.
         */
        get: operations["testSaveSnapshot"];
        put?: never;
        /**
         * Replace the account's state with a snapshot
         * @description Replaces every object, event, job, idempotency record, statistic and setting of the account (not its keys) with the snapshot's, in one transaction, and sets its clock to the snapshot's (back any distance, forward at most 400 days after the account's engine time, as POST /test_helpers/clock may: further → 400 naming the setting). Every row is checked as the API would check it: the first bad one → 400 naming its path (rows.objects[3].obj.amount), nothing changed. Bodies up to the engine's snapshot limit (64 MiB unless gw serve --snapshot-max-bytes says otherwise; over it → 413 naming the limit). An unknown format or version → 400 naming it.
         */
        post: operations["testLoadSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chaos/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch on an API fault to rehearse
         * @description A share (`rate`) of this account's requests matching `method` and `path` is answered 500, 503 or 429 (with Retry-After) instead, answered after `latency_ms` (slow), or done and committed and then left without a response, the connection dropped (response_lost: a retry with the same Idempotency-Key replays it; one without makes a second payment). Every fault ends: after `count` faults, and at the latest after `for_seconds` on the engine clock (600 s by default without a count). Injected faults carry `Gw-Chaos: <rule id>` and are marked in the request log. Test keys only; /v1/chaos itself is never faulted.
         */
        post: operations["createChaosApiFault"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chaos/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch on a provider fault to rehearse
         * @description For this account, a provider goes down (every authorization and refund call fails with a provider error; the provider is marked `degraded`, with `provider.health.changed`, at the first failure and `active` again when the rule ends), or a share (`rate`) of its calls time out, soft-decline (`try_again_later`) or answer `latency_ms` later (really waited; past the provider's timeout the call times out). Routing fails over to the next provider inside the same call as after a real failure: `provider_attempts`, the routing explanation and the 7-day authorization rate show it. Every fault ends: after `count` faults (not for down), and at the latest after `for_seconds` on the engine clock. Test keys only.
         */
        post: operations["createChaosProviderFault"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chaos/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch on a webhook fault to rehearse
         * @description Shapes the deliveries created while it is active (of one endpoint, or every one): a share (`rate`) of events delivered twice, deliveries held a random time within `delay_seconds` so they arrive out of order (shuffle), every delivery held `delay_seconds` (delay), or the first `attempts` attempts of each delivery failed on purpose (logged with error `chaos_fail_first`, nothing sent) so the retry schedule takes over. Every delivery is still signed when sent and recorded in the delivery log, marked with the rule (`chaos`). Every fault ends: after `count` deliveries, and at the latest after `for_seconds` on the engine clock. Test keys only.
         */
        post: operations["createChaosWebhookFault"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chaos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the active faults */
        get: operations["listChaos"];
        put?: never;
        post?: never;
        /** Clear every fault */
        delete: operations["clearChaos"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chaos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one fault */
        delete: operations["deleteChaosRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/request_logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the engine's recent API requests
         * @description The last 1,000 API requests the engine answered (in memory), newest first; requests to the request log itself are not logged.
         */
        get: operations["listRequestLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/request_logs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream API requests (Server-Sent Events)
         * @description New entries of the request log as Server-Sent Events (`id:` = the request id, `event: request_log`, `data:` = the entry JSON), a heartbeat comment every 15 s. Counts towards the streams an account may hold (GET /events/stream says how many): 429 beyond.
         */
        get: operations["streamRequestLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the account of the key in use */
        get: operations["retrieveCurrentAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Every account of the engine, the engine's own (acct_default) included. Keys of the engine's own account only.
         */
        get: operations["listAccounts"];
        put?: never;
        /**
         * Create an account
         * @description A complete, independent gateway: its own objects, events, webhook endpoints, keys, rate limit and test clock. Returns its secret and publishable keys, once.
         */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an account */
        get: operations["retrieveAccount"];
        put?: never;
        /**
         * Update an account
         * @description Sets the name; metadata is merged.
         */
        post: operations["updateAccount"];
        /**
         * Delete an account and all of its data
         * @description Deletes the account and every object, event, delivery, key and job of it, in one commit; its keys stop working at once. The engine's own account cannot be deleted (400 account_not_deletable).
         */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's API keys
         * @description Keys are shown redacted (prefix and last four characters), with their last use.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description A restricted key (the default: permissions required), a secret key or a publishable key. The key itself is returned here only.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/self": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the key in use */
        get: operations["retrieveCurrentApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an API key */
        get: operations["retrieveApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{id}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll an API key
         * @description A new key with the same type, name and permissions; the old one keeps working until `expires_in` seconds from now (wall clock; default 24 h).
         */
        post: operations["rollApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api_keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key stops working at once, on every instance (401 api_key_revoked).
         */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the instance answers
         * @description Without a key, not rate limited, at the root (not under /v1). 200 while the process runs, its database reachable or not: a balancer restarts an instance that stops answering this.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the instance can serve
         * @description Without a key, not rate limited, at the root. 200 when the store answers a read within 2 s and the instance is not stopping; 503 otherwise, with the reason: a balancer sends no traffic to an instance until it is ready.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of the instance
         * @description Without a key, at the root: the Prometheus text format (requests by operation and status with latency, unit-of-work latency, webhook attempts, backlog per endpoint and its oldest due, due jobs and the oldest lag — the fleet-wide ones from one instance of a fleet at a time —, `gw_store_up`, process metrics under the standard `process_*` and `nodejs_*` names), with no `instance` label (the scraper adds it; `gw_instance_info{instance_id}` names the instance). Serve the port on a private network, or start the instance with `gw serve --metrics-listen HOST:PORT`: the metrics are then served there alone (plain HTTP) and this path is 404.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description Served without authentication (and not rate limited): the contract is public, and tools fetch it before they hold a key.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The 43 payment method codes (docs/api.md#payment-methods).
         * @enum {string}
         */
        MethodCode: "card" | "apple_pay" | "google_pay" | "paypal" | "satispay" | "mobilepay" | "vipps" | "twint" | "cashapp" | "alipay" | "wechat_pay" | "kakao_pay" | "grabpay" | "gopay" | "usdc" | "ideal" | "bancontact" | "p24" | "trustly" | "eps" | "fpx" | "blik" | "mb_way" | "swish" | "pix" | "upi" | "paynow" | "promptpay" | "multibanco" | "boleto" | "oxxo" | "konbini" | "klarna" | "affirm" | "afterpay_clearpay" | "sepa_debit" | "bacs_debit" | "ach" | "acss_debit" | "becs_debit" | "sepa_credit" | "spei" | "mpesa";
        /** @description Uppercase ISO 4217 code. */
        Currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG" | (string & {});
        /** @enum {string} */
        PaymentStatus: "requires_confirmation" | "requires_action" | "processing" | "requires_capture" | "succeeded" | "failed" | "canceled";
        /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
        Metadata: {
            [key: string]: string;
        };
        ProviderAttempt: {
            provider: string;
            /** @enum {string} */
            outcome: "pending" | "approved" | "declined" | "soft_declined" | "timeout" | "error" | "authentication_failed" | "abandoned" | "canceled";
            decline_code: string | null;
            latency_ms: number | null;
            /** Format: date-time */
            attempted_at: string;
        };
        Risk: {
            score: number;
            /** @enum {string} */
            decision: "approved" | "review" | "blocked";
            checks: {
                /** @enum {string} */
                avs_result: "pass" | "fail" | "unavailable";
                /** @enum {string} */
                cvv_result: "pass" | "fail" | "unavailable";
            };
        };
        NextAction: {
            /** @constant */
            type: "redirect";
            /**
             * Format: uri
             * @description A `{checkout_url}` page.
             */
            url: string;
        };
        CardDetails: {
            /** @description Card scheme, e.g. visa, mastercard, amex. */
            brand: string;
            last4: string;
            exp_month: number;
            exp_year: number;
            /** @enum {string} */
            funding: "credit" | "debit" | "prepaid" | "unknown";
            /** @description Two-letter ISO 3166 code. */
            country: string;
            /** @description Present once the cardholder passed a 3-D Secure challenge on this payment (attached to dispute evidence); absent when no challenge was passed. */
            three_d_secure?: {
                /**
                 * @description The cardholder passed a 3-D Secure challenge.
                 * @enum {string}
                 */
                result: "authenticated";
            };
        };
        /** @description Details of a non-card method once the customer completed it. */
        MethodDetails: {
            bank?: string;
            iban_last4?: string;
            account_last4?: string;
        };
        /** @description Keyed by method: card (and card-backed wallets) carry card details; other methods their bank or account. */
        PaymentMethodDetails: {
            card?: components["schemas"]["CardDetails"];
            apple_pay?: components["schemas"]["CardDetails"];
            google_pay?: components["schemas"]["CardDetails"];
        } & {
            [key: string]: components["schemas"]["CardDetails"] | components["schemas"]["MethodDetails"];
        };
        /** Payment */
        Payment: {
            id: string;
            /** @constant */
            object: "payment";
            /** @description The total authorized amount, raised by increment_authorization. In the currency's minor unit. */
            amount: number;
            /** @description Captured so far. In the currency's minor unit. */
            amount_captured: number;
            /** @description Refunded across all refunds (pending and succeeded). In the currency's minor unit. */
            amount_refunded: number;
            currency: components["schemas"]["Currency"];
            status: components["schemas"]["PaymentStatus"];
            payment_method: components["schemas"]["MethodCode"];
            payment_method_id: string | null;
            payment_method_details: components["schemas"]["PaymentMethodDetails"] | null;
            /** @enum {string} */
            capture_method: "automatic" | "manual";
            customer: string | null;
            description: string | null;
            /** @description Merchant order id; defaults to the payment id. */
            reference: string;
            metadata: components["schemas"]["Metadata"];
            provider: string | null;
            provider_attempts: components["schemas"]["ProviderAttempt"][];
            risk: components["schemas"]["Risk"] | null;
            next_action: components["schemas"]["NextAction"] | null;
            return_url: string | null;
            refunded: boolean;
            partially_refunded: boolean;
            failure_code: string | null;
            failure_message: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            merchant: string | null;
        };
        Customer: {
            id: string;
            /** @constant */
            object: "customer";
            email: string | null;
            name: string | null;
            description: string | null;
            metadata: components["schemas"]["Metadata"];
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        DeletedCustomer: {
            id: string;
            /** @constant */
            object: "customer";
            /** @constant */
            deleted: true;
        };
        PaymentMethod: {
            id: string;
            /** @constant */
            object: "payment_method";
            /** @constant */
            type: "card";
            card: {
                /** @description Card scheme, e.g. visa, mastercard, amex. */
                brand: string;
                last4: string;
                exp_month: number;
                exp_year: number;
                /** @enum {string} */
                funding: "credit" | "debit" | "prepaid" | "unknown";
                /** @description Two-letter ISO 3166 code. */
                country: string;
                network_token: boolean;
            } | null;
            billing_details: {
                name: string | null;
                email: string | null;
                address: {
                    line1: string | null;
                    postal_code: string | null;
                    country: string | null;
                } | null;
            };
            customer: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        /** @description A hosted checkout session (test mode): what the customer pays on a page of {checkout_url}, and what came of it. */
        CheckoutSession: {
            id: string;
            /** @constant */
            object: "checkout_session";
            /**
             * @description open: the customer may pay, and try again after a decline; complete: a payment succeeded or is processing; expired.
             * @enum {string}
             */
            status: "open" | "complete" | "expired";
            /**
             * Format: uri
             * @description The page on {checkout_url} to send the customer to.
             */
            url: string;
            /** @description What the customer pays. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
            /** @description The methods the page offers. */
            payment_methods: components["schemas"]["MethodCode"][];
            /** @description Merchant order id, given to each payment; defaults to the session id. */
            reference: string;
            customer: string | null;
            success_url: string;
            cancel_url: string;
            /** @description The payment that completed the session; while open, the latest try (null before the first). */
            payment: string | null;
            metadata: components["schemas"]["Metadata"];
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            completed_at: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        Refund: {
            id: string;
            /** @constant */
            object: "refund";
            payment: string;
            /** @description Refunded amount. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            /** @enum {string|null} */
            reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
            /** @enum {string|null} */
            failure_reason: "declined" | "provider_unavailable" | null;
            /** @description The payment's reference. */
            reference: string;
            metadata: components["schemas"]["Metadata"];
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        DisputeEvidence: {
            fields: {
                [key: string]: string;
            };
            files: string[];
            /** Format: date-time */
            submitted_at: string;
        };
        Dispute: {
            id: string;
            /** @constant */
            object: "dispute";
            payment: string;
            /** @description Disputed amount; can be less than the payment amount. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
            /** @enum {string} */
            reason: "fraudulent" | "product_not_received" | "duplicate" | "credit_not_processed" | "general";
            /** @enum {string} */
            stage: "chargeback" | "pre_arbitration" | "arbitration";
            /** @enum {string} */
            status: "needs_response" | "under_review" | "won" | "lost" | "accepted";
            /**
             * Format: date-time
             * @description Null once resolved and while under_review.
             */
            evidence_due_by: string | null;
            evidence: components["schemas"]["DisputeEvidence"] | null;
            /** @description Evidence argued at earlier stages, oldest first: after a ruling escalates the dispute, `evidence` is the next stage's (null until submitted) and what was argued before stays here. Absent on disputes stored before this field. */
            previous_evidence?: {
                /** @enum {string} */
                stage: "chargeback" | "pre_arbitration" | "arbitration";
                fields: {
                    [key: string]: string;
                };
                files: string[];
                /** Format: date-time */
                submitted_at: string;
            }[];
            /**
             * @description Who closed it: `ruling` (the issuer or network ruled: won or lost), `deadline` (the evidence deadline passed unanswered: lost), `merchant` (accepted). Null while open; absent on disputes closed before this field.
             * @enum {string|null}
             */
            closed_by?: "ruling" | "deadline" | "merchant" | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        Event: {
            id: string;
            /** @constant */
            object: "event";
            /**
             * @description Event type. Known: payment.processing, payment.requires_action, payment.succeeded, payment.failed, payment.risk_review, payment.canceled, refund.succeeded, refund.failed, dispute.created, dispute.updated, dispute.closed, merchant.updated, settlement.report.ready, provider.health.changed, webhook_endpoint.failing, webhook_endpoint.disabled, checkout.session.completed, checkout.session.expired. Unknown types can appear within v1; acknowledge them.
             * @example payment.processing
             * @example payment.requires_action
             * @example payment.succeeded
             * @example payment.failed
             * @example payment.risk_review
             * @example payment.canceled
             * @example refund.succeeded
             * @example refund.failed
             * @example dispute.created
             * @example dispute.updated
             * @example dispute.closed
             * @example merchant.updated
             * @example settlement.report.ready
             * @example provider.health.changed
             * @example webhook_endpoint.failing
             * @example webhook_endpoint.disabled
             * @example checkout.session.completed
             * @example checkout.session.expired
             */
            type: string;
            /** Format: date-time */
            created_at: string;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            request_id: string | null;
            data: {
                object: components["schemas"]["Payment"] | components["schemas"]["Refund"] | components["schemas"]["Dispute"] | components["schemas"]["Merchant"] | components["schemas"]["SettlementReport"] | components["schemas"]["Provider"] | components["schemas"]["WebhookEndpoint"] | components["schemas"]["CheckoutSession"];
            };
        };
        WebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            /**
             * Format: uri
             * @description HTTPS URL the events are POSTed to.
             */
            url: string;
            enabled_events: string[];
            description: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata: {
                [key: string]: string;
            };
            /** @enum {string} */
            status: "enabled" | "failing" | "disabled";
            disabled: boolean;
            /** @enum {string|null} */
            disabled_reason: "requested" | "failing" | null;
            /** Format: date-time */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description After rotate_secret with an overlap: until this time (engine clock) every delivery is signed with the previous secret too (a second v1 in the signature header); null when only one secret signs.
             */
            previous_secret_expires_at: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        WebhookEndpointWithSecret: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            /**
             * Format: uri
             * @description HTTPS URL the events are POSTed to.
             */
            url: string;
            /** @description Signing secret; returned only here (create, rotate_secret; an idempotent replay shows it redacted, `whsec_…wXyZ`). */
            secret: string;
            enabled_events: string[];
            description: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata: {
                [key: string]: string;
            };
            /** @enum {string} */
            status: "enabled" | "failing" | "disabled";
            disabled: boolean;
            /** @enum {string|null} */
            disabled_reason: "requested" | "failing" | null;
            /** Format: date-time */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description After rotate_secret with an overlap: until this time (engine clock) every delivery is signed with the previous secret too (a second v1 in the signature header); null when only one secret signs.
             */
            previous_secret_expires_at: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        DeletedWebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            /** @constant */
            deleted: true;
        };
        WebhookReplay: {
            /** @constant */
            object: "webhook_replay";
            endpoint: string;
            /**
             * Format: date-time
             * @description Deliveries created at or after this engine time were considered.
             */
            since: string;
            /** @description New deliveries, for events whose deliveries had given up. */
            queued: number;
            /** @description Deliveries still retrying, made due now. */
            rescheduled: number;
            skipped: {
                already_received: number;
                event_expired: number;
            };
        };
        WebhookDeliveryAttempt: {
            /** Format: date-time */
            at: string;
            status_code: number | null;
            /**
             * @description `chaos_fail_first`: failed on purpose by a chaos rule of the account (fail_first); nothing was sent.
             * @enum {string|null}
             */
            error: "timeout" | "connection_refused" | "dns_error" | "tls_error" | "connection_error" | "destination_blocked" | "chaos_fail_first" | null;
            error_message: string | null;
            latency_ms: number;
            response_excerpt: string | null;
        };
        WebhookDelivery: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            event: string;
            event_type: string;
            endpoint: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed_retrying" | "undeliverable";
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
            /** Format: date-time */
            next_attempt_at: string | null;
            /** @enum {string|null} */
            undeliverable_reason: "retry_window_expired" | "endpoint_disabled" | "endpoint_deleted" | "event_expired" | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description The chaos rule that shaped this delivery: a duplicate, held and shuffled, delayed, or its first attempts failed on purpose. Absent otherwise. */
            chaos?: string;
        };
        Provider: {
            id: string;
            /** @constant */
            object: "provider";
            methods: components["schemas"]["MethodCode"][];
            currencies: components["schemas"]["Currency"][];
            regions: string[];
            /** @enum {string} */
            status: "active" | "degraded" | "disabled";
            /** @description Approved / decided attempts over 7 engine-clock days; null without attempts. */
            auth_rate_7d: number | null;
            attempts_7d: number;
            fees: {
                percent_bps: number;
                /** @description Fixed fee per currency, in its minor unit. */
                fixed: {
                    [key: string]: number;
                };
            };
            latency_ms: {
                p50: number;
                p99: number;
            };
            /** @description false for objects created with test keys. */
            livemode: boolean;
        };
        RoutingDecision: {
            /** @constant */
            object: "routing_decision";
            /** Format: date-time */
            decided_at: string;
            input: {
                /** @description The amount routed. In the currency's minor unit. */
                amount: number;
                currency: components["schemas"]["Currency"];
                payment_method: components["schemas"]["MethodCode"];
                card_brand: string | null;
                country: string | null;
                merchant: string | null;
            };
            /** @description Every provider in catalog order: eligible, or excluded and why. */
            providers: {
                provider: string;
                /** @enum {string} */
                status: "active" | "degraded" | "disabled";
                eligible: boolean;
                /** @enum {string|null} */
                excluded: "currency_not_processed" | "method_not_supported" | "provider_disabled" | "already_tried" | null;
            }[];
            /** @description The routing rule that matched, as it was when the decision was made; null: smart routing alone decided. */
            rule: {
                id: string;
                priority: number;
                /** @enum {string} */
                action: "prefer" | "split" | "block";
                merchant: string | null;
                providers: {
                    provider: string;
                    weight?: number;
                }[];
            } | null;
            /** @enum {string} */
            strategy: "smart_routing" | "rule_prefer" | "rule_split" | "rule_block";
            weights: {
                cost: number;
                auth_rate: number;
                currency: number;
                method: number;
            };
            /** @description Eligible providers in smart-routing order. */
            scores: {
                provider: string;
                score: number;
                degraded: boolean;
                cost: {
                    /** @description The provider fee for this amount. In the currency's minor unit. */
                    fee: number;
                    component: number;
                };
                auth_rate: {
                    rate_7d: number | null;
                    used: number;
                };
                currency: {
                    local: boolean;
                    component: number;
                };
                method: {
                    partner: boolean;
                    component: number;
                };
            }[];
            tie_break: string;
            split_pick: string | null;
            /** @description Providers in the order they are tried. */
            order: string[];
        };
        PaymentRouting: {
            /** @constant */
            object: "payment_routing";
            payment: string;
            decisions: components["schemas"]["RoutingDecision"][];
            attempts: {
                provider: string;
                /** @enum {string} */
                outcome: "pending" | "approved" | "declined" | "soft_declined" | "timeout" | "error" | "authentication_failed" | "abandoned" | "canceled";
                decline_code: string | null;
                /**
                 * @description soft: the next provider was tried; final: routing stopped.
                 * @enum {string|null}
                 */
                decline_class: "soft" | "final" | null;
                latency_ms: number | null;
                /** Format: date-time */
                attempted_at: string;
            }[];
        };
        Merchant: {
            id: string;
            /** @constant */
            object: "merchant";
            business_name: string;
            legal_name: string | null;
            /** @description Two-letter ISO 3166 code. */
            country: string | null;
            email: string | null;
            /** @enum {string} */
            kyb_status: "pending" | "active" | "restricted" | "rejected";
            capabilities: {
                /** @enum {string} */
                card_payments: "pending" | "active" | "inactive";
                /** @enum {string} */
                local_payments: "pending" | "active" | "inactive";
                /** @enum {string} */
                payouts: "pending" | "active" | "inactive";
            };
            mid: string | null;
            metadata: components["schemas"]["Metadata"];
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        RoutingRuleConditions: {
            payment_method?: components["schemas"]["MethodCode"];
            currency?: components["schemas"]["Currency"];
            amount_gte?: number;
            amount_lte?: number;
            card_brand?: string;
            country?: string;
        };
        RoutingRule: {
            id: string;
            /** @constant */
            object: "routing_rule";
            merchant: string | null;
            /** @description The lowest number wins. */
            priority: number;
            /** @enum {string} */
            action: "prefer" | "split" | "block";
            providers: {
                provider: string;
                weight?: number;
            }[];
            conditions: components["schemas"]["RoutingRuleConditions"];
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        DeletedRoutingRule: {
            id: string;
            /** @constant */
            object: "routing_rule";
            /** @constant */
            deleted: true;
        };
        BalanceAmount: {
            /** @description Signed amount. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
        };
        Balance: {
            /** @constant */
            object: "balance";
            available: components["schemas"]["BalanceAmount"][];
            pending: components["schemas"]["BalanceAmount"][];
        };
        /** @description Conversion lines carry rate, converted_amount and converted_currency. */
        SettlementLine: {
            /** @enum {string} */
            type: "payment" | "refund" | "fee" | "dispute" | "dispute_reversal" | "conversion";
            payment: string | null;
            reference: string | null;
            /** @description Signed amount of `currency`. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
            /** Format: date-time */
            created_at: string;
            rate?: number;
            converted_amount?: number;
            converted_currency?: components["schemas"]["Currency"];
        };
        SettlementReport: {
            id: string;
            /** @constant */
            object: "settlement_report";
            provider: string;
            /**
             * Format: date
             * @description Engine-clock day the report covers.
             */
            date: string;
            currency: components["schemas"]["Currency"];
            /** @description Captured payments. In the currency's minor unit. */
            gross: number;
            /** @description Refunds (negative). In the currency's minor unit. */
            refunds: number;
            /** @description Provider fees (negative). In the currency's minor unit. */
            fees: number;
            /** @description gross + refunds + fees. In the currency's minor unit. */
            net: number;
            /** @description Dispute debits and reversals. In the currency's minor unit. */
            adjustments: number;
            /** @description net + adjustments. In the currency's minor unit. */
            payout_amount: number;
            payout_currency: components["schemas"]["Currency"];
            /** @description payout_amount in payout_currency. In the currency's minor unit. */
            converted_payout_amount: number;
            lines: components["schemas"]["SettlementLine"][];
            payout: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        Payout: {
            id: string;
            /** @constant */
            object: "payout";
            /** @description Paid out amount. In the currency's minor unit. */
            amount: number;
            currency: components["schemas"]["Currency"];
            /** @enum {string} */
            status: "in_transit" | "paid";
            /** Format: date */
            arrival_date: string;
            settlement_reports: string[];
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        /** @description An account's whole state as one document; keys and accounts are never in it. */
        Snapshot: {
            /** @constant */
            object: "snapshot";
            /** @constant */
            format: "gw.snapshot";
            version: number;
            account: string;
            livemode: boolean;
            /**
             * Format: date-time
             * @description Wall-clock time of the save.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description The account's engine clock at the save; loading restores it.
             */
            engine_time: string;
            /** @description Every row of the account but its keys and account objects: objects (with versions and internal parts), events (their exact bytes), timeline jobs, idempotency records, provider statistics, settings (the test clock among them). Documented in docs/api.md "Snapshots". */
            rows: {
                objects: unknown[];
                events: unknown[];
                jobs: unknown[];
                idempotency: unknown[];
                stats: unknown[];
                settings: {
                    [key: string]: unknown;
                };
            };
        };
        /** @description What a snapshot load replaced the account's state with. */
        SnapshotLoad: {
            /** @constant */
            object: "snapshot_load";
            from_account: string;
            objects: number;
            events: number;
            jobs: number;
            idempotency_keys: number;
            /** @description Webhook endpoints the snapshot holds without their signing secret (saved without include_secrets): each got a new secret, shown by rotating it (POST /webhook_endpoints/{id}/rotate_secret). */
            new_webhook_secrets: number;
            /**
             * Format: date-time
             * @description The account's engine clock once loaded.
             */
            engine_time: string;
        };
        TestClock: {
            /** @constant */
            object: "test_clock";
            /** Format: date-time */
            now: string;
            offset_seconds: number;
            /** @description Advance only: what it set off — events the clock caused, by type, plus payout.created and payout.paid, and webhook.delivery_attempt: with `wait`, every webhook attempt made at an engine time inside the stretch (catch-up retries included); without it, the attempts due when it answered, one per delivery (docs/api.md#clock-fired). */
            fired?: {
                [key: string]: number;
            };
            /** @description Frozen: the clock moves only when advanced or set (POST /test_helpers/clock). */
            frozen: boolean;
            /** @description Advance with `wait` only, when 30 s were not enough: webhook attempts still due (a receiver that does not answer takes 10 s per attempt). */
            pending_attempts?: number;
        };
        /** @description A fault the account switched on to rehearse failures (test mode): of the API, a provider, or webhook deliveries. */
        ChaosRule: components["schemas"]["ChaosApiRule"] | components["schemas"]["ChaosProviderRule"] | components["schemas"]["ChaosWebhookRule"];
        /** @description An API fault: matching requests answered with an error, slowly, or not at all. */
        ChaosApiRule: {
            id: string;
            /** @constant */
            object: "chaos_rule";
            /** @constant */
            kind: "api";
            /** @description The share of matching requests, calls or deliveries faulted. */
            rate: number;
            /** @enum {string} */
            method: "GET" | "POST" | "DELETE" | "*";
            /** @description An API path under /v1: /payments, /payments/* (one segment), /refunds/** (any depth below). */
            path: string;
            /** @enum {string} */
            fault: "500" | "503" | "429" | "slow" | "response_lost";
            /** @description The slow fault's added latency. */
            latency_ms: number | null;
            /** @description Faults to inject before the rule is spent; null: until `until`. */
            count: number | null;
            /** @description Seeds what is faulted: the same ones every run. */
            seed: number | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the rule ends, on the engine clock: every fault ends.
             */
            until: string;
            /** @description Faults injected so far, for a rule with a count (status only). */
            injected?: number | null;
        };
        /** @description A provider fault: its authorizations and refunds fail (down), time out, soft-decline or slow down. */
        ChaosProviderRule: {
            id: string;
            /** @constant */
            object: "chaos_rule";
            /** @constant */
            kind: "provider";
            /** @description The share of matching requests, calls or deliveries faulted. */
            rate: number;
            provider: string;
            /** @enum {string} */
            fault: "down" | "timeout" | "soft_decline" | "latency";
            /** @description The latency fault's added latency. */
            latency_ms: number | null;
            /** @description Faults to inject before the rule is spent; null: until `until`. */
            count: number | null;
            /** @description Seeds what is faulted: the same ones every run. */
            seed: number | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the rule ends, on the engine clock: every fault ends.
             */
            until: string;
            /** @description Faults injected so far, for a rule with a count (status only). */
            injected?: number | null;
        };
        /** @description A webhook fault: what happens to the deliveries created while it is active. */
        ChaosWebhookRule: {
            id: string;
            /** @constant */
            object: "chaos_rule";
            /** @constant */
            kind: "webhooks";
            /** @description The share of matching requests, calls or deliveries faulted. */
            rate: number;
            /** @description One endpoint's deliveries; null: every endpoint's. */
            endpoint: string | null;
            /** @enum {string} */
            fault: "duplicate" | "shuffle" | "delay" | "fail_first";
            /** @description delay: how long each delivery is held; shuffle: the window deliveries are spread over. */
            delay_seconds: number | null;
            /** @description fail_first: attempts of each delivery failed on purpose before one is sent. */
            attempts: number | null;
            /** @description Faults to inject before the rule is spent; null: until `until`. */
            count: number | null;
            /** @description Seeds what is faulted: the same ones every run. */
            seed: number | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the rule ends, on the engine clock: every fault ends.
             */
            until: string;
            /** @description Faults injected so far, for a rule with a count (status only). */
            injected?: number | null;
        };
        ChaosApiFaultCreate: {
            /**
             * @description Default *.
             * @enum {string}
             */
            method?: "GET" | "POST" | "DELETE" | "*";
            /**
             * @description The API path to fault, under /v1: /payments, /payments/*, /refunds/**.
             * @example /payments
             */
            path: string;
            /**
             * @description 500, 503 or 429 (with Retry-After) instead of the answer; slow: the answer after latency_ms; response_lost: the work is done and committed, then the connection is dropped with no response.
             * @enum {string}
             */
            fault: "500" | "503" | "429" | "slow" | "response_lost";
            /** @description The share to fault; default 1. */
            rate?: number;
            /** @description How many faults, then the rule is spent. */
            count?: number;
            /** @description How long the rule lasts on the engine clock; default 600 without a count, 7 days (604800) with one. */
            for_seconds?: number;
            /** @description Seeds which requests, calls or deliveries a rate below 1 picks. */
            seed?: number;
            /** @description The slow fault's added latency; default 2000. */
            latency_ms?: number;
        };
        ChaosProviderFaultCreate: {
            /** @description The provider (GET /v1/providers) id (`prov_...`); an unknown id is 404 resource_missing naming this parameter. */
            provider: string;
            /**
             * @description down: every call fails (a provider error) and the provider is marked degraded until the rule ends; timeout: a share of calls time out; soft_decline: a share of authorizations are declined softly (try_again_later); latency: calls answer latency_ms later (really waited), and time out when that passes the provider's timeout. Routing fails over as after a real failure.
             * @enum {string}
             */
            fault: "down" | "timeout" | "soft_decline" | "latency";
            /** @description The share to fault; default 1. */
            rate?: number;
            /** @description How many faults, then the rule is spent. */
            count?: number;
            /** @description How long the rule lasts on the engine clock; default 600 without a count, 7 days (604800) with one. */
            for_seconds?: number;
            /** @description Seeds which requests, calls or deliveries a rate below 1 picks. */
            seed?: number;
            /** @description The latency fault's added latency; default 1000. */
            latency_ms?: number;
        };
        ChaosWebhookFaultCreate: {
            /**
             * @description duplicate: the event is delivered twice (two deliveries, each signed and logged); shuffle: deliveries are held a random time within delay_seconds, so they arrive out of order; delay: every delivery is held delay_seconds; fail_first: the first `attempts` attempts of each delivery fail on purpose (logged, nothing sent) and the retry schedule takes over.
             * @enum {string}
             */
            fault: "duplicate" | "shuffle" | "delay" | "fail_first";
            /** @description Only this endpoint's deliveries (default: every endpoint's); an unknown id is 404 resource_missing naming this parameter. */
            endpoint?: string;
            /** @description The share to fault; default 1. */
            rate?: number;
            /** @description How many faults, then the rule is spent. */
            count?: number;
            /** @description How long the rule lasts on the engine clock; default 600 without a count, 7 days (604800) with one. */
            for_seconds?: number;
            /** @description Seeds which requests, calls or deliveries a rate below 1 picks. */
            seed?: number;
            /** @description delay: the hold (required); shuffle: the window (default 10). */
            delay_seconds?: number;
            /** @description fail_first: how many attempts of each delivery fail (default 1). */
            attempts?: number;
        };
        /** @description One API request the engine answered (the request log behind `gw logs tail`). */
        RequestLog: {
            /** @description The request's id (its Request-Id); also the cursor. */
            id: string;
            /** @constant */
            object: "request_log";
            /** @enum {string} */
            method: "GET" | "POST" | "DELETE" | "HEAD" | "PUT" | "PATCH" | "OPTIONS";
            /** @description The path as requested, without the query string. */
            path: string;
            status: number;
            latency_ms: number;
            /** @description A POST answered from the stored response of its Idempotency-Key. */
            idempotent_replayed: boolean;
            /** @description The engine instance that answered (host:port): a fleet behind a load balancer keeps one log. */
            instance: string;
            /** @description The key that made the request; null when authentication failed. */
            api_key: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description A fault the account's chaos rules injected into this request: the rule id and the fault (`chaos_… response_lost`). */
            chaos?: string;
        };
        /** @description An account: a complete, independent gateway sharing the engine. */
        Account: {
            id: string;
            /** @constant */
            object: "account";
            name: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata: {
                [key: string]: string;
            };
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /**
             * Format: date-time
             * @description Wall-clock time.
             */
            created_at: string;
        };
        /** @description A new account with its keys (shown once). */
        AccountWithKeys: {
            id: string;
            /** @constant */
            object: "account";
            name: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata: {
                [key: string]: string;
            };
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /**
             * Format: date-time
             * @description Wall-clock time.
             */
            created_at: string;
            /** @description The new account's secret key, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere). */
            secret_key: string;
            /** @description The new account's publishable key, returned only here (redacted in an idempotent replay). */
            publishable_key: string;
        };
        DeletedAccount: {
            id: string;
            /** @constant */
            object: "account";
            /** @constant */
            deleted: true;
        };
        /** @description An API key, without its secret. */
        ApiKey: {
            id: string;
            /** @constant */
            object: "api_key";
            /** @enum {string} */
            type: "secret" | "restricted" | "publishable";
            name: string | null;
            /** @description The prefix and last four characters; the key itself is returned only when it is made. */
            redacted: string;
            /** @description A restricted key's permissions (write includes read); null for secret and publishable keys. */
            permissions: string[] | null;
            /** @enum {string} */
            status: "active" | "revoked";
            /**
             * Format: date-time
             * @description Wall-clock time after which the key stops working (a rolled key's old secret).
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Wall-clock time of the last use, to the minute.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /**
             * Format: date-time
             * @description Wall-clock time.
             */
            created_at: string;
        };
        /** @description A new API key with its secret (shown once). */
        ApiKeyWithSecret: {
            id: string;
            /** @constant */
            object: "api_key";
            /** @enum {string} */
            type: "secret" | "restricted" | "publishable";
            name: string | null;
            /** @description The prefix and last four characters; the key itself is returned only when it is made. */
            redacted: string;
            /** @description A restricted key's permissions (write includes read); null for secret and publishable keys. */
            permissions: string[] | null;
            /** @enum {string} */
            status: "active" | "revoked";
            /**
             * Format: date-time
             * @description Wall-clock time after which the key stops working (a rolled key's old secret).
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Wall-clock time of the last use, to the minute.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description false for objects created with test keys. */
            livemode: boolean;
            /**
             * Format: date-time
             * @description Wall-clock time.
             */
            created_at: string;
            /** @description The key itself, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere). */
            secret: string;
        };
        ErrorDetail: {
            /** @enum {string} */
            type: "invalid_request_error" | "authentication_error" | "permission_error" | "card_error" | "idempotency_error" | "rate_limit_error" | "api_error";
            /** @enum {string} */
            code: "parameter_invalid" | "parameter_missing" | "parameter_unknown" | "version_invalid" | "tls_required" | "request_malformed" | "currency_not_supported" | "card_number_invalid" | "card_expiry_invalid" | "cvc_invalid" | "merchant_inactive" | "amount_too_large" | "payment_unexpected_state" | "payment_not_capturable" | "payment_not_incrementable" | "payment_not_cancelable" | "payment_not_refundable" | "payment_disputed" | "partial_refund_unsupported" | "payment_not_disputable" | "payment_already_disputed" | "dispute_not_actionable" | "payment_method_not_attached" | "session_invalid" | "test_mode_only" | "webhook_endpoint_limit" | "webhook_endpoint_disabled" | "no_webhook_endpoints" | "event_already_delivered" | "replay_too_large" | "api_key_limit" | "api_key_revoked" | "api_key_expired" | "account_not_deletable" | "checkout_session_not_open" | "api_key_missing" | "api_key_invalid" | "live_mode_unavailable" | "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "do_not_honor" | "lost_card" | "stolen_card" | "fraudulent" | "invalid_account" | "authentication_required" | "permission_denied" | "resource_missing" | "route_unknown" | "request_timeout" | "idempotency_key_reused" | "idempotency_key_in_use" | "request_too_large" | "media_type_unsupported" | "rate_limit_exceeded" | "request_header_too_large" | "internal_error" | "provider_error" | "service_unavailable";
            /** @description Human-readable: names the field and the fix. */
            message: string;
            /**
             * Format: uri
             * @description Link to the error's reference entry.
             */
            doc_url: string;
            /** @description Equal to the Request-Id header. */
            request_id: string;
            /** @description The offending parameter: dotted path for nested fields (payment_method_data.card.number), [i] for array items. */
            param?: string;
            /** @description On 402 card errors: the failed payment, stored and retrievable. */
            payment?: string;
            /** @description On 403 permission_error: the permission the request needs, e.g. payments:write; several joined by commas when it needs them all (webhooks:write,events:read), as gw keys create --permissions takes them. */
            permission?: string;
        };
        /** @description The error envelope. */
        Error: {
            error: components["schemas"]["ErrorDetail"];
        };
        /** @description A page of Payment objects (the list envelope). */
        PaymentList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Payment"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Customer objects (the list envelope). */
        CustomerList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Customer"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of PaymentMethod objects (the list envelope). */
        PaymentMethodList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["PaymentMethod"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of CheckoutSession objects (the list envelope). */
        CheckoutSessionList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["CheckoutSession"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Refund objects (the list envelope). */
        RefundList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Refund"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Dispute objects (the list envelope). */
        DisputeList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Dispute"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Event objects (the list envelope). */
        EventList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Event"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of WebhookEndpoint objects (the list envelope). */
        WebhookEndpointList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of WebhookDelivery objects (the list envelope). */
        WebhookDeliveryList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["WebhookDelivery"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Provider objects (the list envelope). */
        ProviderList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Provider"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Merchant objects (the list envelope). */
        MerchantList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Merchant"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of RoutingRule objects (the list envelope). */
        RoutingRuleList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["RoutingRule"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of SettlementReport objects (the list envelope). */
        SettlementReportList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["SettlementReport"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Payout objects (the list envelope). */
        PayoutList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Payout"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of ChaosRule objects (the list envelope). */
        ChaosRuleList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["ChaosRule"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of RequestLog objects (the list envelope). */
        RequestLogList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["RequestLog"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of Account objects (the list envelope). */
        AccountList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["Account"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        /** @description A page of ApiKey objects (the list envelope). */
        ApiKeyList: {
            /** @constant */
            object: "list";
            /** @description The endpoint path that produced the page. */
            url: string;
            /** @description The page, newest first; may be empty. */
            data: components["schemas"]["ApiKey"][];
            /** @description More results exist beyond this page in the paging direction. */
            has_more: boolean;
        };
        PaymentCreate: {
            /** @description Integer minor units, 1 to 99,999,999. */
            amount: number;
            /** @description Uppercase ISO 4217 code the method accepts. */
            currency: string;
            /** @description Method code; may be omitted with payment_method_id or payment_method_data (then card). */
            payment_method?: string;
            /** @description Saved payment method id (`pm_...`); an unknown id is 404 resource_missing naming this parameter. */
            payment_method_id?: string;
            /** @description A card instrument, saved or one-time (docs/decisions.md#saved-and-one-time-instruments). Raw card numbers are accepted in test mode only. */
            payment_method_data?: {
                /** @enum {string} */
                type: "card";
                card: {
                    /** @description Card number (test mode only); Luhn-checked by the use case. */
                    number: string;
                    exp_month: number;
                    /** @description Four digits; an expired card is 400 card_expiry_invalid. */
                    exp_year: number;
                    cvc?: string;
                };
                /** @description Customer id (`cus_...`); an unknown id is 404 resource_missing naming this parameter. */
                customer?: string;
                billing_details?: {
                    name?: string;
                    email?: string;
                    phone?: string;
                    address?: {
                        line1?: string;
                        line2?: string;
                        city?: string;
                        state?: string;
                        postal_code?: string;
                        country?: string;
                    };
                };
            };
            /** @description Merchant order id; defaults to the payment id. */
            reference?: string;
            /** @description A customer id, `{id}`, or `{email, name}` to create one; the response returns the id string. */
            customer?: string | {
                /** @description Customer id (`cus_...`); an unknown id is 404 resource_missing naming this parameter. */
                id?: string;
                email?: string;
                name?: string;
            };
            /** Format: uri */
            return_url?: string;
            /**
             * @description `manual` for cards only.
             * @enum {string}
             */
            capture_method?: "automatic" | "manual";
            /** @description Default true; false leaves the payment in requires_confirmation. */
            confirm?: boolean;
            description?: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
            /** @description Active sub-merchant id (`mer_...`); an unknown id is 404 resource_missing naming this parameter. */
            merchant?: string;
        };
        PaymentConfirm: {
            /** @description Saved payment method id (`pm_...`); an unknown id is 404 resource_missing naming this parameter. */
            payment_method_id?: string;
            /** Format: uri */
            return_url?: string;
        };
        PaymentCapture: {
            /** @description Omit to capture the rest of the authorization. */
            amount?: number;
            /** @description Close the authorization after this capture (release the rest). */
            final_capture?: boolean;
        };
        PaymentIncrement: {
            /** @description The new total; greater than the current amount. */
            amount: number;
        };
        PaymentCancel: {
            /** @enum {string} */
            cancellation_reason?: "duplicate" | "fraudulent" | "requested_by_customer" | "abandoned";
        };
        TestPaymentAction: {
            /** @enum {string} */
            outcome: "approve" | "fail" | "abandon";
        };
        TestPaymentReview: {
            /** @enum {string} */
            decision: "approve" | "block";
        };
        CustomerFields: {
            email?: string | null;
            name?: string | null;
            description?: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
        };
        /** @description A card instrument, saved or one-time (docs/decisions.md#saved-and-one-time-instruments). Raw card numbers are accepted in test mode only. */
        PaymentMethodCreate: {
            /** @enum {string} */
            type: "card";
            card: {
                /** @description Card number (test mode only); Luhn-checked by the use case. */
                number: string;
                exp_month: number;
                /** @description Four digits; an expired card is 400 card_expiry_invalid. */
                exp_year: number;
                cvc?: string;
            };
            /** @description Customer id (`cus_...`); an unknown id is 404 resource_missing naming this parameter. */
            customer?: string;
            billing_details?: {
                name?: string;
                email?: string;
                phone?: string;
                address?: {
                    line1?: string;
                    line2?: string;
                    city?: string;
                    state?: string;
                    postal_code?: string;
                    country?: string;
                };
            };
        };
        CheckoutSessionCreate: {
            /** @description Integer minor units, 1 to 99,999,999. */
            amount: number;
            /** @description Uppercase ISO 4217 code. */
            currency: string;
            /**
             * Format: uri
             * @description Where the customer returns after paying, with `session` and `payment` added; default a stand-in page of the gateway ({checkout_url}/returned/success) that shows them.
             */
            success_url?: string;
            /**
             * Format: uri
             * @description Where "Back to the shop" leads, with `session` added (the session stays open); default {checkout_url}/returned/cancel.
             */
            cancel_url?: string;
            /** @description The methods to offer, each taking the currency; default every method that takes it and has a customer page. */
            payment_methods?: string[];
            /** @description Merchant order id for every payment of the session; defaults to the session id. */
            reference?: string;
            /** @description Customer id (`cus_...`); an unknown id is 404 resource_missing naming this parameter. */
            customer?: string;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
            /** @description Seconds until the session expires (engine clock); default 86400. */
            expires_in?: number;
        };
        CheckoutSessionPay: {
            /** @description Saved card (the hosted card fields save it with the publishable key) id (`pm_...`); an unknown id is 404 resource_missing naming this parameter. */
            payment_method_id: string;
        };
        RefundCreate: {
            /** @description The succeeded payment to refund; unknown → 404. */
            payment: string;
            /** @description Omit to refund everything still refundable. */
            amount?: number;
            /** @enum {string|null} */
            reason?: "duplicate" | "fraudulent" | "requested_by_customer" | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
        };
        /** @description At least one field or file (else 400 parameter_missing, checked by the use case). */
        DisputeEvidenceSubmit: {
            /** @description Any keys; recognized: product_description, customer_communication, tracking_number, shipping_address, refund_policy, service_date. */
            fields?: {
                [key: string]: string;
            };
            files?: string[];
        };
        TestDisputeCreate: {
            payment: string;
            /** @enum {string} */
            reason?: "fraudulent" | "product_not_received" | "duplicate" | "credit_not_processed" | "general";
            /** @description Defaults to, and may not exceed, captured minus refunded. */
            amount?: number;
        };
        TestDisputeResolve: {
            /** @enum {string} */
            outcome: "won" | "lost" | "escalate";
        };
        WebhookReplayCreate: {
            /**
             * Format: date-time
             * @description Deliveries created at or after this time (engine clock). Give this or within.
             */
            since?: string;
            /** @description Deliveries created in the last this many seconds of engine time. Give this or since. */
            within?: number;
            /** @description Which deliveries to send again; default failed_retrying and undeliverable. */
            status?: ("pending" | "failed_retrying" | "undeliverable")[];
        };
        WebhookSecretRotate: {
            /** @description Seconds (engine clock) the previous secret keeps signing alongside the new one (a second v1); default 0: the new secret alone, at once. */
            expires_in?: number;
        };
        WebhookEndpointCreate: {
            /** Format: uri */
            url: string;
            /** @description Event types, prefixes ending in `.*`, or `*`; unknown types are rejected. */
            enabled_events: string[];
            description?: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
        };
        WebhookEndpointUpdate: {
            /** Format: uri */
            url?: string;
            enabled_events?: string[];
            description?: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
            disabled?: boolean;
        };
        EventResend: {
            /** @description Webhook endpoint id (`wh_...`); an unknown id is 404 resource_missing naming this parameter. */
            endpoint?: string;
            /** @description Without endpoint: also to the endpoints that already received the event (default false: only those that have not). */
            all?: boolean;
        };
        TestProviderHealth: {
            /** @enum {string} */
            status: "active" | "degraded" | "disabled";
        };
        MerchantCreate: {
            business_name: string;
            legal_name?: string;
            country?: string;
            email?: string;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
            /** @description Capabilities change only once KYB is complete: none on create. */
            capabilities?: Record<string, never>;
        };
        MerchantUpdate: {
            business_name?: string;
            legal_name?: string;
            country?: string;
            email?: string;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
            capabilities?: {
                /** @enum {string} */
                card_payments?: "active" | "inactive";
                /** @enum {string} */
                local_payments?: "active" | "inactive";
                /** @enum {string} */
                payouts?: "active" | "inactive";
            };
        };
        RoutingRuleCreate: {
            /** @description Merchant (null: every payment of the account) id (`mer_...`); an unknown id is 404 resource_missing naming this parameter. */
            merchant?: string | null;
            priority: number;
            /** @enum {string} */
            action: "prefer" | "split" | "block";
            conditions?: {
                payment_method?: string;
                currency?: string;
                amount_gte?: number;
                amount_lte?: number;
                card_brand?: string;
                country?: string;
            };
            /** @description At least one for prefer and split (checked by the use case). */
            providers?: {
                provider: string;
                weight?: number;
            }[];
        };
        RoutingRuleUpdate: {
            /** @description Merchant (null: every payment of the account) id (`mer_...`); an unknown id is 404 resource_missing naming this parameter. */
            merchant?: string | null;
            priority?: number;
            /** @enum {string} */
            action?: "prefer" | "split" | "block";
            conditions?: {
                payment_method?: string;
                currency?: string;
                amount_gte?: number;
                amount_lte?: number;
                card_brand?: string;
                country?: string;
            };
            /** @description At least one for prefer and split (checked by the use case). */
            providers?: {
                provider: string;
                weight?: number;
            }[];
        };
        /** @description A snapshot as GET /test_helpers/snapshot answered it. */
        SnapshotBody: {
            /** @constant */
            object?: "snapshot";
            /** @description 'gw.snapshot' */
            format?: string;
            /** @description The snapshot format version (1); other versions are refused by name. */
            version?: number;
            account?: string;
            livemode?: boolean;
            created_at?: string;
            engine_time?: string;
            /** @description The account's rows as saved (docs/api.md "Snapshots"); checked by the engine, not by this schema. */
            rows?: {
                [key: string]: unknown;
            };
        };
        TestClockSet: {
            /** @description Freeze the clock where it stands (or at now), or let it tick again. */
            frozen?: boolean;
            /**
             * Format: date-time
             * @description Set the clock to this instant: the current engine time or later (the clock never moves back), at most 400 days later (as an advance: the jobs due in between run before the answer).
             */
            now?: string;
        };
        TestClockAdvance: {
            seconds: number;
            /** @description Answer only once every webhook attempt the advance made due (retries included) has ended and been recorded, up to 30 s; default false (the attempts follow the answer within milliseconds). */
            wait?: boolean;
        };
        AccountFields: {
            name?: string | null;
            /** @description Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500. */
            metadata?: {
                [key: string]: string;
            };
        };
        ApiKeyCreate: {
            /**
             * @description restricted (the default) needs permissions.
             * @enum {string}
             */
            type?: "restricted" | "secret" | "publishable";
            name?: string;
            /** @description For restricted keys: resource:read or resource:write (write includes read), or *:read / *:write. Resources: payments, refunds, disputes, customers, payment_methods, webhooks, events, routing, merchants, settlement, request_logs, test_helpers (and accounts on the engine's own account). */
            permissions?: string[];
        };
        ApiKeyRoll: {
            /** @description How long the old key keeps working (wall clock); default 86400 (24 h), 0: at once. */
            expires_in?: number;
        };
        /** @description No parameters. */
        Empty: Record<string, never>;
    };
    responses: {
        /** @description Invalid request: a parameter (error.param names it), the state of the object, the Service-Version or the Idempotency-Key. */
        BadRequest: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "parameter_invalid" | "parameter_missing" | "parameter_unknown" | "version_invalid" | "tls_required" | "request_malformed" | "currency_not_supported" | "card_number_invalid" | "card_expiry_invalid" | "cvc_invalid" | "merchant_inactive" | "amount_too_large" | "payment_unexpected_state" | "payment_not_capturable" | "payment_not_incrementable" | "payment_not_cancelable" | "payment_not_refundable" | "payment_disputed" | "partial_refund_unsupported" | "payment_not_disputable" | "payment_already_disputed" | "dispute_not_actionable" | "payment_method_not_attached" | "session_invalid" | "test_mode_only" | "webhook_endpoint_limit" | "webhook_endpoint_disabled" | "no_webhook_endpoints" | "event_already_delivered" | "replay_too_large" | "api_key_limit" | "api_key_revoked" | "api_key_expired" | "account_not_deletable" | "checkout_session_not_open";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description Missing, invalid, expired or revoked API key (authentication_error). */
        Unauthorized: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "authentication_error";
                        /** @enum {unknown} */
                        code?: "api_key_missing" | "api_key_invalid" | "api_key_expired" | "api_key_revoked" | "live_mode_unavailable";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The issuer declined (card_error); error.payment names the stored failed payment, failure_code repeats the code. */
        CardError: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "card_error";
                        /** @enum {unknown} */
                        code?: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "do_not_honor" | "lost_card" | "stolen_card" | "fraudulent" | "invalid_account" | "authentication_required";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The key may not do this (permission_error): a restricted key without the permission error.permission names (several joined by commas: the key needs them all), a publishable key, or key and account management with a key that cannot. */
        Forbidden: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "permission_error";
                        /** @enum {unknown} */
                        code?: "permission_denied";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description Unknown id (resource_missing, error.param names it) or unknown route (route_unknown). */
        NotFound: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "resource_missing" | "route_unknown";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The request was not received in time (its headers or body stopped arriving); the connection closes. Retry it with the same Idempotency-Key. */
        RequestTimeout: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "request_timeout";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description Idempotency-Key reused with a different request, or a request with it is still running (idempotency_error). */
        IdempotencyConflict: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "idempotency_error";
                        /** @enum {unknown} */
                        code?: "idempotency_key_reused" | "idempotency_key_in_use";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The request body is over 1 MiB. */
        PayloadTooLarge: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "request_too_large";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The request body is not JSON (Content-Type other than application/json) or is encoded in a way the engine does not decode (Content-Encoding other than gzip): the message names it. */
        UnsupportedMediaType: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "media_type_unsupported";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description Over the rate limit (100 requests/s per account and mode, bursts to 200; the account's publishable key has a budget of the same size of its own), or too many failed authentications from this client address (5/s, bursts of 20: only failures are refused, a key that authenticates is served): wait Retry-After seconds, reuse the Idempotency-Key. */
        TooManyRequests: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                "Retry-After": components["headers"]["Retry-After"];
                /** @description Requests per second allowed (absent when failed authentications ran out). */
                "RateLimit-Limit"?: number;
                /** @description Always 0 on a 429 (absent when failed authentications ran out). */
                "RateLimit-Remaining"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "rate_limit_error";
                        /** @enum {unknown} */
                        code?: "rate_limit_exceeded";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The request header block is too large. */
        HeadersTooLarge: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                        /** @enum {unknown} */
                        code?: "request_header_too_large";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description Internal error (api_error): retry with the same Idempotency-Key. */
        InternalError: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "api_error";
                        /** @enum {unknown} */
                        code?: "internal_error";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The provider did not confirm (api_error): retry with the same Idempotency-Key. */
        BadGateway: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "api_error";
                        /** @enum {unknown} */
                        code?: "provider_error";
                    };
                } & components["schemas"]["Error"];
            };
        };
        /** @description The engine's database cannot be reached right now (PostgreSQL restarting): wait Retry-After seconds and retry with the same Idempotency-Key. */
        ServiceUnavailable: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error?: {
                        /** @constant */
                        type?: "api_error";
                        /** @enum {unknown} */
                        code?: "service_unavailable";
                    };
                } & components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Page size, 1 to 100. */
        limit: number;
        /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
        starting_after: string;
        /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
        ending_before: string;
        /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
        "Idempotency-Key": string;
        /** @description Pins the version; anything but v1 is 400 version_invalid. */
        "Service-Version": "v1";
    };
    requestBodies: never;
    headers: {
        /** @description Unique per response; error bodies repeat it in error.request_id. */
        "Request-Id": string;
        /** @description `true` when this is a replay of an earlier request with the same Idempotency-Key. */
        "Idempotent-Replayed": "true";
        /** @description Whole seconds to wait, at least 1. */
        "Retry-After": number;
        /** @description The account's engine time when the answer was made (ISO 8601, UTC, milliseconds): on every answer to a request whose key was authenticated, whatever the key may do. A test clock (`POST /test_helpers/clock/advance`) runs ahead of real time and deadlines (`evidence_due_by`) follow it: a client shows time left against this, not its own clock (docs/decisions.md#the-gateways-clock). */
        "Gw-Engine-Time": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPayments: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only payments in this status. */
                status?: "requires_confirmation" | "requires_action" | "processing" | "requires_capture" | "succeeded" | "failed" | "canceled";
                /** @description Only payments of this customer (a `cus_` id; an email is refused naming `customer_email`). */
                customer?: string;
                /** @description Only payments of customers with this email, compared case-insensitively (every customer that has it). */
                customer_email?: string;
                /** @description Only payments of customers whose email is at this domain (case-insensitive; a leading `@` is allowed). */
                email_domain?: string;
                /** @description Only payments of customers whose name, or its last word, starts with this (ignoring case, accents and repeated spaces). */
                customer_name?: string;
                /** @description Only card payments whose card ends in these four digits. */
                card_last4?: string;
                /** @description Only payments with this merchant reference. */
                reference?: string;
                /** @description Only payments whose merchant reference starts with this. */
                reference_prefix?: string;
                /** @description Only payments whose metadata holds this value under this key, given as `key:value`. */
                metadata?: string;
                /** @description Created at or after this ISO 8601 date-time (inclusive). */
                created_gte?: string;
                /** @description Created at or before this ISO 8601 date-time (inclusive). */
                created_lte?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCreate"];
            };
        };
        responses: {
            /** @description The payment, in whatever state routing left it. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["CardError"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrievePayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment, with every provider attempt. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrievePaymentRouting: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routing of the payment. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentRouting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    confirmPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent by the hosted card fields: the origin of the shop's page that mounted them. A customer step the payment needs (3-D Secure) may then be framed by that origin alone, and its last page tells that origin the outcome (docs/api.md#permissions-pages-destinations-metrics-and-the-terminal). Anything but an origin is 400 parameter_invalid. */
                "Gw-Parent-Origin"?: string;
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PaymentConfirm"];
            };
        };
        responses: {
            /** @description The payment, now routed. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["CardError"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    capturePayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PaymentCapture"];
            };
        };
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    incrementAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentIncrement"];
            };
        };
        responses: {
            /** @description The payment with the new amount. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["CardError"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PaymentCancel"];
            };
        };
        responses: {
            /** @description The canceled payment, or the succeeded one when funds were already captured. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testPaymentAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPaymentAction"];
            };
        };
        responses: {
            /** @description The payment after the step. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testPaymentReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment id (`pay_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPaymentReview"];
            };
        };
        responses: {
            /** @description The payment after the decision. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only customers with this email. */
                email?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of customers. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CustomerFields"];
            };
        };
        responses: {
            /** @description The new customer. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The customer id (`cus_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The customer id (`cus_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CustomerFields"];
            };
        };
        responses: {
            /** @description The updated customer. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The customer id (`cus_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted customer id. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCustomer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPaymentMethods: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only payment methods attached to this customer. */
                customer?: string;
                /** @description Only this instrument type. */
                type?: "card";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payment methods. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethodList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentMethodCreate"];
            };
        };
        responses: {
            /** @description The saved card (the number is never returned). */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrievePaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment method id (`pm_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment method. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    detachPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payment method id (`pm_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Empty"];
            };
        };
        responses: {
            /** @description The detached payment method. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCheckoutSessions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only sessions in this status. */
                status?: "open" | "complete" | "expired";
                /** @description Only the session this payment belongs to (its completing payment, or while open its latest try). */
                payment?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of checkout sessions, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSessionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckoutSessionCreate"];
            };
        };
        responses: {
            /** @description The session, with the url to send the customer to. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The checkout session id (`cs_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session: its status and its payment. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    expireCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The checkout session id (`cs_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Empty"];
            };
        };
        responses: {
            /** @description The session, expired. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    payCheckoutSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent by the hosted card fields: the origin of the shop's page that mounted them, bound to the payment as for confirmPayment. Anything but an origin is 400 parameter_invalid. */
                "Gw-Parent-Origin"?: string;
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The checkout session id (`cs_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckoutSessionPay"];
            };
        };
        responses: {
            /** @description The payment this try made. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["CardError"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only refunds of this payment. */
                payment?: string;
                /** @description Only refunds in this status. */
                status?: "pending" | "succeeded" | "failed";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of refunds. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundCreate"];
            };
        };
        responses: {
            /** @description The pending refund. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The refund id (`rf_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The refund. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDisputes: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only disputes in this status. */
                status?: "needs_response" | "under_review" | "won" | "lost" | "accepted";
                /** @description Only disputes of this payment. */
                payment?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of disputes, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DisputeList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveDispute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The dispute id (`dp_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dispute. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    submitDisputeEvidence: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The dispute id (`dp_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DisputeEvidenceSubmit"];
            };
        };
        responses: {
            /** @description The dispute, under_review. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    acceptDispute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The dispute id (`dp_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Empty"];
            };
        };
        responses: {
            /** @description The accepted dispute. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testCreateDispute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestDisputeCreate"];
            };
        };
        responses: {
            /** @description The new dispute, needs_response. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testResolveDispute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The dispute id (`dp_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestDisputeResolve"];
            };
        };
        responses: {
            /** @description The dispute after the ruling. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description An event type, a prefix ending in `.*`, or several separated by commas. */
                type?: string;
                /** @description Only one object's story: for a payment, its own events and its refunds' and disputes'; for a refund or dispute, its own; for anything else, the events about it. */
                object?: string;
                /** @description Created at or after this ISO 8601 date-time (inclusive). */
                created_gte?: string;
                /** @description Created at or before this ISO 8601 date-time (inclusive). */
                created_lte?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description An event type, a prefix ending in `.*`, or several separated by commas. */
                type?: string;
                /** @description Resume after this event (same as the Last-Event-ID header); an unknown event is 400 so the client backfills with GET /events. */
                last_event_id?: string;
            };
            header?: {
                /** @description Resume after this event. */
                "Last-Event-ID"?: string;
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream; stays open. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The event id (`evt_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event, as delivered to webhooks. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEventDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only deliveries in this status. */
                status?: "pending" | "succeeded" | "failed_retrying" | "undeliverable";
                /** @description Only deliveries to this endpoint. */
                endpoint?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The event id (`evt_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resendEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The event id (`evt_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EventResend"];
            };
        };
        responses: {
            /** @description The new deliveries (has_more is false). */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description true or false. */
                disabled?: boolean;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints (without secrets). */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointCreate"];
            };
        };
        responses: {
            /** @description The endpoint, including its secret. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdate"];
            };
        };
        responses: {
            /** @description The updated endpoint. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted endpoint id. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookSecretRotate"];
            };
        };
        responses: {
            /** @description The endpoint with its new secret (returned once). */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replayWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookReplayCreate"];
            };
        };
        responses: {
            /** @description What was sent again. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReplay"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpointDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only deliveries in this status. */
                status?: "pending" | "succeeded" | "failed_retrying" | "undeliverable";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook endpoint id (`wh_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The webhook delivery id (`whd_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery with every attempt. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listProviders: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only providers supporting this method code. */
                payment_method?: string;
                /** @description Only providers processing this currency. */
                currency?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveProvider: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The provider id (`prov_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider with health, 7-day auth rate, fees and latency. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Provider"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    simulateRouting: {
        parameters: {
            query: {
                /** @description In the currency's minor unit. */
                amount: number;
                /** @description Uppercase ISO 4217 code. */
                currency: string;
                /** @description A method code. */
                payment_method: string;
                /** @description For card rules: visa, mastercard, amex, ... */
                card_brand?: string;
                /** @description For country rules: the card's issuing country. */
                country?: string;
                /** @description Route as this sub-merchant (its rules apply). */
                merchant?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The decision, explained. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutingDecision"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testSetProviderHealth: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The provider id (`prov_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestProviderHealth"];
            };
        };
        responses: {
            /** @description The provider with its new status. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Provider"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMerchants: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only merchants in this KYB status. */
                kyb_status?: "pending" | "active" | "restricted" | "rejected";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of merchants. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantCreate"];
            };
        };
        responses: {
            /** @description The merchant, kyb_status pending. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The merchant id (`mer_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateMerchant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The merchant id (`mer_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MerchantUpdate"];
            };
        };
        responses: {
            /** @description The updated merchant. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRoutingRules: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only rules of this merchant. */
                merchant?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of rules. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutingRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createRoutingRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoutingRuleCreate"];
            };
        };
        responses: {
            /** @description The new rule. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutingRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveRoutingRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The routing rule id (`rr_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutingRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateRoutingRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The routing rule id (`rr_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RoutingRuleUpdate"];
            };
        };
        responses: {
            /** @description The updated rule. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutingRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteRoutingRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The routing rule id (`rr_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted rule id. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedRoutingRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveBalance: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Available and pending amounts per currency. Captured funds are pending until their day's settlement run, which pays them out: paid-out money is in the payouts, not the balance. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Balance"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSettlementReports: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only reports of this provider. */
                provider?: string;
                /** @description Only reports in this currency. */
                currency?: string;
                /** @description Only reports of this day (YYYY-MM-DD). */
                date?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reports. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementReportList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveSettlementReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description `text/csv` for CSV; otherwise JSON. */
                Accept?: string;
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The settlement report id (`stl_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementReport"];
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPayouts: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only payouts in this currency. */
                currency?: string;
                /** @description Only payouts in this status. */
                status?: "in_transit" | "paid";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payouts. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrievePayout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The payout id (`po_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testGetClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The engine clock. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testSetClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestClockSet"];
            };
        };
        responses: {
            /** @description The engine clock. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testAdvanceClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestClockAdvance"];
            };
        };
        responses: {
            /** @description The engine clock after the advance. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testSaveSnapshot: {
        parameters: {
            query?: {
                /** @description true: the webhook endpoints' signing secrets and full card numbers too (sensitive; a secret key only, else 403). Without it endpoints have no secret (a load gives each a new one) and card numbers are masked but for the published test cards. */
                include_secrets?: boolean;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The snapshot. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testLoadSnapshot: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SnapshotBody"];
            };
        };
        responses: {
            /** @description What was loaded. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotLoad"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createChaosApiFault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChaosApiFaultCreate"];
            };
        };
        responses: {
            /** @description The rule, with when it ends. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createChaosProviderFault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChaosProviderFaultCreate"];
            };
        };
        responses: {
            /** @description The rule, with when it ends. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createChaosWebhookFault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChaosWebhookFaultCreate"];
            };
        };
        responses: {
            /** @description The rule, with when it ends. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listChaos: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every active rule of the account, with the faults each injected. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    clearChaos: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules that were active and are now ended. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteChaosRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The chaos rule id (`chaos_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule, now ended. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRequestLogs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only these statuses: a status, a class (4xx), or a comma list. */
                status?: string;
                /** @description Only these methods. */
                method?: string;
                /** @description Only paths starting with this prefix (with or without /v1). */
                path?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of requests, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestLogList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    streamRequestLogs: {
        parameters: {
            query?: {
                /** @description Only these statuses: a status, a class (4xx), or a comma list. */
                status?: string;
                /** @description Only these methods. */
                method?: string;
                /** @description Only paths starting with this prefix (with or without /v1). */
                path?: string;
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request stream; stays open. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveCurrentAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AccountFields"];
            };
        };
        responses: {
            /** @description The account with its keys. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountWithKeys"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The account id (`acct_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The account id (`acct_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AccountFields"];
            };
        };
        responses: {
            /** @description The updated account. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The account id (`acct_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted account id. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedAccount"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["limit"];
                /** @description Objects older than this id (the last id of the current page). Not with ending_before. */
                starting_after?: components["parameters"]["starting_after"];
                /** @description Objects newer than this id (the first id of the current page). Not with starting_after. */
                ending_before?: components["parameters"]["ending_before"];
                /** @description Only keys of this type. */
                type?: "secret" | "restricted" | "publishable";
            };
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys, newest first. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description The key with its secret. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveCurrentApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key that made this request. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retrieveApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The API key id (`key_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key (redacted). */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rollApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The API key id (`key_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ApiKeyRoll"];
            };
        };
        responses: {
            /** @description The new key with its secret. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409. */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path: {
                /** @description The API key id (`key_...`). Any other id is 404 resource_missing. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Empty"];
            };
        };
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Gw-Engine-Time": components["headers"]["Gw-Engine-Time"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The instance is alive. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The instance can serve. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Not ready: the store does not answer, or the instance is stopping. */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "not_ready";
                        reason: string;
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Pins the version; anything but v1 is 400 version_invalid. */
                "Service-Version"?: components["parameters"]["Service-Version"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            [key: string]: unknown;
                        };
                        paths: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
}

// ---------------------------------------------------------------- named aliases

/** Each schema of the document by its name. */
export type MethodCode = components['schemas']['MethodCode']
export type Currency = components['schemas']['Currency']
export type PaymentStatus = components['schemas']['PaymentStatus']
export type Metadata = components['schemas']['Metadata']
export type ProviderAttempt = components['schemas']['ProviderAttempt']
export type Risk = components['schemas']['Risk']
export type NextAction = components['schemas']['NextAction']
export type CardDetails = components['schemas']['CardDetails']
export type MethodDetails = components['schemas']['MethodDetails']
export type PaymentMethodDetails = components['schemas']['PaymentMethodDetails']
export type Payment = components['schemas']['Payment']
export type Customer = components['schemas']['Customer']
export type DeletedCustomer = components['schemas']['DeletedCustomer']
export type PaymentMethod = components['schemas']['PaymentMethod']
export type CheckoutSession = components['schemas']['CheckoutSession']
export type Refund = components['schemas']['Refund']
export type DisputeEvidence = components['schemas']['DisputeEvidence']
export type Dispute = components['schemas']['Dispute']
export type Event = components['schemas']['Event']
export type WebhookEndpoint = components['schemas']['WebhookEndpoint']
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret']
export type DeletedWebhookEndpoint = components['schemas']['DeletedWebhookEndpoint']
export type WebhookReplay = components['schemas']['WebhookReplay']
export type WebhookDeliveryAttempt = components['schemas']['WebhookDeliveryAttempt']
export type WebhookDelivery = components['schemas']['WebhookDelivery']
export type Provider = components['schemas']['Provider']
export type RoutingDecision = components['schemas']['RoutingDecision']
export type PaymentRouting = components['schemas']['PaymentRouting']
export type Merchant = components['schemas']['Merchant']
export type RoutingRuleConditions = components['schemas']['RoutingRuleConditions']
export type RoutingRule = components['schemas']['RoutingRule']
export type DeletedRoutingRule = components['schemas']['DeletedRoutingRule']
export type BalanceAmount = components['schemas']['BalanceAmount']
export type Balance = components['schemas']['Balance']
export type SettlementLine = components['schemas']['SettlementLine']
export type SettlementReport = components['schemas']['SettlementReport']
export type Payout = components['schemas']['Payout']
export type Snapshot = components['schemas']['Snapshot']
export type SnapshotLoad = components['schemas']['SnapshotLoad']
export type TestClock = components['schemas']['TestClock']
export type ChaosRule = components['schemas']['ChaosRule']
export type ChaosApiRule = components['schemas']['ChaosApiRule']
export type ChaosProviderRule = components['schemas']['ChaosProviderRule']
export type ChaosWebhookRule = components['schemas']['ChaosWebhookRule']
export type ChaosApiFaultCreate = components['schemas']['ChaosApiFaultCreate']
export type ChaosProviderFaultCreate = components['schemas']['ChaosProviderFaultCreate']
export type ChaosWebhookFaultCreate = components['schemas']['ChaosWebhookFaultCreate']
export type RequestLog = components['schemas']['RequestLog']
export type Account = components['schemas']['Account']
export type AccountWithKeys = components['schemas']['AccountWithKeys']
export type DeletedAccount = components['schemas']['DeletedAccount']
export type ApiKey = components['schemas']['ApiKey']
export type ApiKeyWithSecret = components['schemas']['ApiKeyWithSecret']
export type ErrorDetail = components['schemas']['ErrorDetail']
export type Error = components['schemas']['Error']
export type PaymentList = components['schemas']['PaymentList']
export type CustomerList = components['schemas']['CustomerList']
export type PaymentMethodList = components['schemas']['PaymentMethodList']
export type CheckoutSessionList = components['schemas']['CheckoutSessionList']
export type RefundList = components['schemas']['RefundList']
export type DisputeList = components['schemas']['DisputeList']
export type EventList = components['schemas']['EventList']
export type WebhookEndpointList = components['schemas']['WebhookEndpointList']
export type WebhookDeliveryList = components['schemas']['WebhookDeliveryList']
export type ProviderList = components['schemas']['ProviderList']
export type MerchantList = components['schemas']['MerchantList']
export type RoutingRuleList = components['schemas']['RoutingRuleList']
export type SettlementReportList = components['schemas']['SettlementReportList']
export type PayoutList = components['schemas']['PayoutList']
export type ChaosRuleList = components['schemas']['ChaosRuleList']
export type RequestLogList = components['schemas']['RequestLogList']
export type AccountList = components['schemas']['AccountList']
export type ApiKeyList = components['schemas']['ApiKeyList']
export type PaymentCreate = components['schemas']['PaymentCreate']
export type PaymentConfirm = components['schemas']['PaymentConfirm']
export type PaymentCapture = components['schemas']['PaymentCapture']
export type PaymentIncrement = components['schemas']['PaymentIncrement']
export type PaymentCancel = components['schemas']['PaymentCancel']
export type TestPaymentAction = components['schemas']['TestPaymentAction']
export type TestPaymentReview = components['schemas']['TestPaymentReview']
export type CustomerFields = components['schemas']['CustomerFields']
export type PaymentMethodCreate = components['schemas']['PaymentMethodCreate']
export type CheckoutSessionCreate = components['schemas']['CheckoutSessionCreate']
export type CheckoutSessionPay = components['schemas']['CheckoutSessionPay']
export type RefundCreate = components['schemas']['RefundCreate']
export type DisputeEvidenceSubmit = components['schemas']['DisputeEvidenceSubmit']
export type TestDisputeCreate = components['schemas']['TestDisputeCreate']
export type TestDisputeResolve = components['schemas']['TestDisputeResolve']
export type WebhookReplayCreate = components['schemas']['WebhookReplayCreate']
export type WebhookSecretRotate = components['schemas']['WebhookSecretRotate']
export type WebhookEndpointCreate = components['schemas']['WebhookEndpointCreate']
export type WebhookEndpointUpdate = components['schemas']['WebhookEndpointUpdate']
export type EventResend = components['schemas']['EventResend']
export type TestProviderHealth = components['schemas']['TestProviderHealth']
export type MerchantCreate = components['schemas']['MerchantCreate']
export type MerchantUpdate = components['schemas']['MerchantUpdate']
export type RoutingRuleCreate = components['schemas']['RoutingRuleCreate']
export type RoutingRuleUpdate = components['schemas']['RoutingRuleUpdate']
export type SnapshotBody = components['schemas']['SnapshotBody']
export type TestClockSet = components['schemas']['TestClockSet']
export type TestClockAdvance = components['schemas']['TestClockAdvance']
export type AccountFields = components['schemas']['AccountFields']
export type ApiKeyCreate = components['schemas']['ApiKeyCreate']
export type ApiKeyRoll = components['schemas']['ApiKeyRoll']
export type Empty = components['schemas']['Empty']

/** The parameters of each operation that takes any: its body, or its query (paging included). */
/** GET /payments: the query */
export type ListPaymentsParams = NonNullable<operations['listPayments']['parameters']['query']>
/** POST /payments: the body */
export type CreatePaymentParams = NonNullable<operations['createPayment']['requestBody']>['content']['application/json']
/** POST /payments/{id}/confirm: the body */
export type ConfirmPaymentParams = NonNullable<operations['confirmPayment']['requestBody']>['content']['application/json']
/** POST /payments/{id}/capture: the body */
export type CapturePaymentParams = NonNullable<operations['capturePayment']['requestBody']>['content']['application/json']
/** POST /payments/{id}/increment_authorization: the body */
export type IncrementAuthorizationParams = NonNullable<operations['incrementAuthorization']['requestBody']>['content']['application/json']
/** POST /payments/{id}/cancel: the body */
export type CancelPaymentParams = NonNullable<operations['cancelPayment']['requestBody']>['content']['application/json']
/** POST /test_helpers/payments/{id}/action: the body */
export type TestPaymentActionParams = NonNullable<operations['testPaymentAction']['requestBody']>['content']['application/json']
/** POST /test_helpers/payments/{id}/review: the body */
export type TestPaymentReviewParams = NonNullable<operations['testPaymentReview']['requestBody']>['content']['application/json']
/** GET /customers: the query */
export type ListCustomersParams = NonNullable<operations['listCustomers']['parameters']['query']>
/** POST /customers: the body */
export type CreateCustomerParams = NonNullable<operations['createCustomer']['requestBody']>['content']['application/json']
/** POST /customers/{id}: the body */
export type UpdateCustomerParams = NonNullable<operations['updateCustomer']['requestBody']>['content']['application/json']
/** GET /payment_methods: the query */
export type ListPaymentMethodsParams = NonNullable<operations['listPaymentMethods']['parameters']['query']>
/** POST /payment_methods: the body */
export type CreatePaymentMethodParams = NonNullable<operations['createPaymentMethod']['requestBody']>['content']['application/json']
/** GET /checkout_sessions: the query */
export type ListCheckoutSessionsParams = NonNullable<operations['listCheckoutSessions']['parameters']['query']>
/** POST /checkout_sessions: the body */
export type CreateCheckoutSessionParams = NonNullable<operations['createCheckoutSession']['requestBody']>['content']['application/json']
/** POST /checkout_sessions/{id}/pay: the body */
export type PayCheckoutSessionParams = NonNullable<operations['payCheckoutSession']['requestBody']>['content']['application/json']
/** GET /refunds: the query */
export type ListRefundsParams = NonNullable<operations['listRefunds']['parameters']['query']>
/** POST /refunds: the body */
export type CreateRefundParams = NonNullable<operations['createRefund']['requestBody']>['content']['application/json']
/** GET /disputes: the query */
export type ListDisputesParams = NonNullable<operations['listDisputes']['parameters']['query']>
/** POST /disputes/{id}/evidence: the body */
export type SubmitDisputeEvidenceParams = NonNullable<operations['submitDisputeEvidence']['requestBody']>['content']['application/json']
/** POST /test_helpers/disputes: the body */
export type TestCreateDisputeParams = NonNullable<operations['testCreateDispute']['requestBody']>['content']['application/json']
/** POST /test_helpers/disputes/{id}/resolve: the body */
export type TestResolveDisputeParams = NonNullable<operations['testResolveDispute']['requestBody']>['content']['application/json']
/** GET /events: the query */
export type ListEventsParams = NonNullable<operations['listEvents']['parameters']['query']>
/** GET /events/stream: the query */
export type StreamEventsParams = NonNullable<operations['streamEvents']['parameters']['query']>
/** GET /events/{id}/deliveries: the query */
export type ListEventDeliveriesParams = NonNullable<operations['listEventDeliveries']['parameters']['query']>
/** POST /events/{id}/resend: the body */
export type ResendEventParams = NonNullable<operations['resendEvent']['requestBody']>['content']['application/json']
/** GET /webhook_endpoints: the query */
export type ListWebhookEndpointsParams = NonNullable<operations['listWebhookEndpoints']['parameters']['query']>
/** POST /webhook_endpoints: the body */
export type CreateWebhookEndpointParams = NonNullable<operations['createWebhookEndpoint']['requestBody']>['content']['application/json']
/** POST /webhook_endpoints/{id}: the body */
export type UpdateWebhookEndpointParams = NonNullable<operations['updateWebhookEndpoint']['requestBody']>['content']['application/json']
/** POST /webhook_endpoints/{id}/rotate_secret: the body */
export type RotateWebhookEndpointSecretParams = NonNullable<operations['rotateWebhookEndpointSecret']['requestBody']>['content']['application/json']
/** POST /webhook_endpoints/{id}/replay: the body */
export type ReplayWebhookEndpointParams = NonNullable<operations['replayWebhookEndpoint']['requestBody']>['content']['application/json']
/** GET /webhook_endpoints/{id}/deliveries: the query */
export type ListWebhookEndpointDeliveriesParams = NonNullable<operations['listWebhookEndpointDeliveries']['parameters']['query']>
/** GET /providers: the query */
export type ListProvidersParams = NonNullable<operations['listProviders']['parameters']['query']>
/** GET /routing/simulate: the query */
export type SimulateRoutingParams = NonNullable<operations['simulateRouting']['parameters']['query']>
/** POST /test_helpers/providers/{id}/health: the body */
export type TestSetProviderHealthParams = NonNullable<operations['testSetProviderHealth']['requestBody']>['content']['application/json']
/** GET /merchants: the query */
export type ListMerchantsParams = NonNullable<operations['listMerchants']['parameters']['query']>
/** POST /merchants: the body */
export type CreateMerchantParams = NonNullable<operations['createMerchant']['requestBody']>['content']['application/json']
/** POST /merchants/{id}: the body */
export type UpdateMerchantParams = NonNullable<operations['updateMerchant']['requestBody']>['content']['application/json']
/** GET /routing_rules: the query */
export type ListRoutingRulesParams = NonNullable<operations['listRoutingRules']['parameters']['query']>
/** POST /routing_rules: the body */
export type CreateRoutingRuleParams = NonNullable<operations['createRoutingRule']['requestBody']>['content']['application/json']
/** POST /routing_rules/{id}: the body */
export type UpdateRoutingRuleParams = NonNullable<operations['updateRoutingRule']['requestBody']>['content']['application/json']
/** GET /settlement_reports: the query */
export type ListSettlementReportsParams = NonNullable<operations['listSettlementReports']['parameters']['query']>
/** GET /payouts: the query */
export type ListPayoutsParams = NonNullable<operations['listPayouts']['parameters']['query']>
/** POST /test_helpers/clock: the body */
export type TestSetClockParams = NonNullable<operations['testSetClock']['requestBody']>['content']['application/json']
/** POST /test_helpers/clock/advance: the body */
export type TestAdvanceClockParams = NonNullable<operations['testAdvanceClock']['requestBody']>['content']['application/json']
/** GET /test_helpers/snapshot: the query */
export type TestSaveSnapshotParams = NonNullable<operations['testSaveSnapshot']['parameters']['query']>
/** POST /test_helpers/snapshot: the body */
export type TestLoadSnapshotParams = NonNullable<operations['testLoadSnapshot']['requestBody']>['content']['application/json']
/** POST /chaos/api: the body */
export type CreateChaosApiFaultParams = NonNullable<operations['createChaosApiFault']['requestBody']>['content']['application/json']
/** POST /chaos/providers: the body */
export type CreateChaosProviderFaultParams = NonNullable<operations['createChaosProviderFault']['requestBody']>['content']['application/json']
/** POST /chaos/webhooks: the body */
export type CreateChaosWebhookFaultParams = NonNullable<operations['createChaosWebhookFault']['requestBody']>['content']['application/json']
/** GET /request_logs: the query */
export type ListRequestLogsParams = NonNullable<operations['listRequestLogs']['parameters']['query']>
/** GET /request_logs/stream: the query */
export type StreamRequestLogsParams = NonNullable<operations['streamRequestLogs']['parameters']['query']>
/** GET /accounts: the query */
export type ListAccountsParams = NonNullable<operations['listAccounts']['parameters']['query']>
/** POST /accounts: the body */
export type CreateAccountParams = NonNullable<operations['createAccount']['requestBody']>['content']['application/json']
/** POST /accounts/{id}: the body */
export type UpdateAccountParams = NonNullable<operations['updateAccount']['requestBody']>['content']['application/json']
/** GET /api_keys: the query */
export type ListApiKeysParams = NonNullable<operations['listApiKeys']['parameters']['query']>
/** POST /api_keys: the body */
export type CreateApiKeyParams = NonNullable<operations['createApiKey']['requestBody']>['content']['application/json']
/** POST /api_keys/{id}/roll: the body */
export type RollApiKeyParams = NonNullable<operations['rollApiKey']['requestBody']>['content']['application/json']

/** The HTTP method of each operation. */
export interface OperationMethods {
  listPayments: 'get'
  createPayment: 'post'
  retrievePayment: 'get'
  retrievePaymentRouting: 'get'
  confirmPayment: 'post'
  capturePayment: 'post'
  incrementAuthorization: 'post'
  cancelPayment: 'post'
  testPaymentAction: 'post'
  testPaymentReview: 'post'
  listCustomers: 'get'
  createCustomer: 'post'
  retrieveCustomer: 'get'
  updateCustomer: 'post'
  deleteCustomer: 'delete'
  listPaymentMethods: 'get'
  createPaymentMethod: 'post'
  retrievePaymentMethod: 'get'
  detachPaymentMethod: 'post'
  listCheckoutSessions: 'get'
  createCheckoutSession: 'post'
  retrieveCheckoutSession: 'get'
  expireCheckoutSession: 'post'
  payCheckoutSession: 'post'
  listRefunds: 'get'
  createRefund: 'post'
  retrieveRefund: 'get'
  listDisputes: 'get'
  retrieveDispute: 'get'
  submitDisputeEvidence: 'post'
  acceptDispute: 'post'
  testCreateDispute: 'post'
  testResolveDispute: 'post'
  listEvents: 'get'
  streamEvents: 'get'
  retrieveEvent: 'get'
  listEventDeliveries: 'get'
  resendEvent: 'post'
  listWebhookEndpoints: 'get'
  createWebhookEndpoint: 'post'
  retrieveWebhookEndpoint: 'get'
  updateWebhookEndpoint: 'post'
  deleteWebhookEndpoint: 'delete'
  rotateWebhookEndpointSecret: 'post'
  replayWebhookEndpoint: 'post'
  listWebhookEndpointDeliveries: 'get'
  retrieveWebhookDelivery: 'get'
  listProviders: 'get'
  retrieveProvider: 'get'
  simulateRouting: 'get'
  testSetProviderHealth: 'post'
  listMerchants: 'get'
  createMerchant: 'post'
  retrieveMerchant: 'get'
  updateMerchant: 'post'
  listRoutingRules: 'get'
  createRoutingRule: 'post'
  retrieveRoutingRule: 'get'
  updateRoutingRule: 'post'
  deleteRoutingRule: 'delete'
  retrieveBalance: 'get'
  listSettlementReports: 'get'
  retrieveSettlementReport: 'get'
  listPayouts: 'get'
  retrievePayout: 'get'
  testGetClock: 'get'
  testSetClock: 'post'
  testAdvanceClock: 'post'
  testSaveSnapshot: 'get'
  testLoadSnapshot: 'post'
  createChaosApiFault: 'post'
  createChaosProviderFault: 'post'
  createChaosWebhookFault: 'post'
  listChaos: 'get'
  clearChaos: 'delete'
  deleteChaosRule: 'delete'
  listRequestLogs: 'get'
  streamRequestLogs: 'get'
  retrieveCurrentAccount: 'get'
  listAccounts: 'get'
  createAccount: 'post'
  retrieveAccount: 'get'
  updateAccount: 'post'
  deleteAccount: 'delete'
  listApiKeys: 'get'
  createApiKey: 'post'
  retrieveCurrentApiKey: 'get'
  retrieveApiKey: 'get'
  rollApiKey: 'post'
  revokeApiKey: 'post'
  getLiveness: 'get'
  getReadiness: 'get'
  getMetrics: 'get'
  getOpenApiDocument: 'get'
}

/** The method and path of each operation (the client calls operations by their id). */
export const OPERATION_PATHS = {
  listPayments: ['get', '/payments'],
  createPayment: ['post', '/payments'],
  retrievePayment: ['get', '/payments/{id}'],
  retrievePaymentRouting: ['get', '/payments/{id}/routing'],
  confirmPayment: ['post', '/payments/{id}/confirm'],
  capturePayment: ['post', '/payments/{id}/capture'],
  incrementAuthorization: ['post', '/payments/{id}/increment_authorization'],
  cancelPayment: ['post', '/payments/{id}/cancel'],
  testPaymentAction: ['post', '/test_helpers/payments/{id}/action'],
  testPaymentReview: ['post', '/test_helpers/payments/{id}/review'],
  listCustomers: ['get', '/customers'],
  createCustomer: ['post', '/customers'],
  retrieveCustomer: ['get', '/customers/{id}'],
  updateCustomer: ['post', '/customers/{id}'],
  deleteCustomer: ['delete', '/customers/{id}'],
  listPaymentMethods: ['get', '/payment_methods'],
  createPaymentMethod: ['post', '/payment_methods'],
  retrievePaymentMethod: ['get', '/payment_methods/{id}'],
  detachPaymentMethod: ['post', '/payment_methods/{id}/detach'],
  listCheckoutSessions: ['get', '/checkout_sessions'],
  createCheckoutSession: ['post', '/checkout_sessions'],
  retrieveCheckoutSession: ['get', '/checkout_sessions/{id}'],
  expireCheckoutSession: ['post', '/checkout_sessions/{id}/expire'],
  payCheckoutSession: ['post', '/checkout_sessions/{id}/pay'],
  listRefunds: ['get', '/refunds'],
  createRefund: ['post', '/refunds'],
  retrieveRefund: ['get', '/refunds/{id}'],
  listDisputes: ['get', '/disputes'],
  retrieveDispute: ['get', '/disputes/{id}'],
  submitDisputeEvidence: ['post', '/disputes/{id}/evidence'],
  acceptDispute: ['post', '/disputes/{id}/accept'],
  testCreateDispute: ['post', '/test_helpers/disputes'],
  testResolveDispute: ['post', '/test_helpers/disputes/{id}/resolve'],
  listEvents: ['get', '/events'],
  streamEvents: ['get', '/events/stream'],
  retrieveEvent: ['get', '/events/{id}'],
  listEventDeliveries: ['get', '/events/{id}/deliveries'],
  resendEvent: ['post', '/events/{id}/resend'],
  listWebhookEndpoints: ['get', '/webhook_endpoints'],
  createWebhookEndpoint: ['post', '/webhook_endpoints'],
  retrieveWebhookEndpoint: ['get', '/webhook_endpoints/{id}'],
  updateWebhookEndpoint: ['post', '/webhook_endpoints/{id}'],
  deleteWebhookEndpoint: ['delete', '/webhook_endpoints/{id}'],
  rotateWebhookEndpointSecret: ['post', '/webhook_endpoints/{id}/rotate_secret'],
  replayWebhookEndpoint: ['post', '/webhook_endpoints/{id}/replay'],
  listWebhookEndpointDeliveries: ['get', '/webhook_endpoints/{id}/deliveries'],
  retrieveWebhookDelivery: ['get', '/webhook_deliveries/{id}'],
  listProviders: ['get', '/providers'],
  retrieveProvider: ['get', '/providers/{id}'],
  simulateRouting: ['get', '/routing/simulate'],
  testSetProviderHealth: ['post', '/test_helpers/providers/{id}/health'],
  listMerchants: ['get', '/merchants'],
  createMerchant: ['post', '/merchants'],
  retrieveMerchant: ['get', '/merchants/{id}'],
  updateMerchant: ['post', '/merchants/{id}'],
  listRoutingRules: ['get', '/routing_rules'],
  createRoutingRule: ['post', '/routing_rules'],
  retrieveRoutingRule: ['get', '/routing_rules/{id}'],
  updateRoutingRule: ['post', '/routing_rules/{id}'],
  deleteRoutingRule: ['delete', '/routing_rules/{id}'],
  retrieveBalance: ['get', '/balance'],
  listSettlementReports: ['get', '/settlement_reports'],
  retrieveSettlementReport: ['get', '/settlement_reports/{id}'],
  listPayouts: ['get', '/payouts'],
  retrievePayout: ['get', '/payouts/{id}'],
  testGetClock: ['get', '/test_helpers/clock'],
  testSetClock: ['post', '/test_helpers/clock'],
  testAdvanceClock: ['post', '/test_helpers/clock/advance'],
  testSaveSnapshot: ['get', '/test_helpers/snapshot'],
  testLoadSnapshot: ['post', '/test_helpers/snapshot'],
  createChaosApiFault: ['post', '/chaos/api'],
  createChaosProviderFault: ['post', '/chaos/providers'],
  createChaosWebhookFault: ['post', '/chaos/webhooks'],
  listChaos: ['get', '/chaos'],
  clearChaos: ['delete', '/chaos'],
  deleteChaosRule: ['delete', '/chaos/{id}'],
  listRequestLogs: ['get', '/request_logs'],
  streamRequestLogs: ['get', '/request_logs/stream'],
  retrieveCurrentAccount: ['get', '/account'],
  listAccounts: ['get', '/accounts'],
  createAccount: ['post', '/accounts'],
  retrieveAccount: ['get', '/accounts/{id}'],
  updateAccount: ['post', '/accounts/{id}'],
  deleteAccount: ['delete', '/accounts/{id}'],
  listApiKeys: ['get', '/api_keys'],
  createApiKey: ['post', '/api_keys'],
  retrieveCurrentApiKey: ['get', '/api_keys/self'],
  retrieveApiKey: ['get', '/api_keys/{id}'],
  rollApiKey: ['post', '/api_keys/{id}/roll'],
  revokeApiKey: ['post', '/api_keys/{id}/revoke'],
  getLiveness: ['get', '/healthz'],
  getReadiness: ['get', '/readyz'],
  getMetrics: ['get', '/metrics'],
  getOpenApiDocument: ['get', '/openapi.json'],
} as const
