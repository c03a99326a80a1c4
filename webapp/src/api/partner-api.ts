// Generated from the partner API's OpenAPI document by webapp/scripts/api-types.ts: do not edit.
/* eslint-disable */
export interface paths {
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The partner account
         * @description `balance` and `currency` always mean the dollar balance (kept for compatibility); the TON balance is in `nft_balance` and `balances`.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalog of prices
         * @description The same prices for every partner; they follow the market, so read them before ordering. While supplier costs cannot be read the answer is HTTP 200 `{unavailable: true, reason: "cost_unavailable"}` and orders are refused.
         */
        get: operations["getProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/validate/recipient": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a recipient
         * @description Resolves a username as an order would. For `premium`, `already_premium: true` means an active subscription now: an order is accepted and waits until it ends. Rate limited per key (scope `validate_recipient`). 503 `product_unavailable` (`upstream_unavailable`, `Retry-After`) when the supplier itself is down (with a real supplier: its session expired, verification needed, unreachable).
         */
        post: operations["validateRecipient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/validate/game": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a game-platform user
         * @description Rate limited per key (scope `validate_recipient`). 503 `product_unavailable` (`upstream_unavailable`, `Retry-After`) when the supplier itself is down (with a real supplier: its session expired, verification needed, unreachable).
         */
        post: operations["validateGame"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List own orders
         * @description Newest first, keyset paging: pass `next_cursor` back as `cursor`.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Create an order
         * @description Debits the partner price at once and answers the order (HTTP 200). The same `idempotency_key` with the same parameters returns the same order with one debit; with other parameters 409 `idempotency_key_reuse`; while the first request is still being created 409 `order_in_progress` (retry in a second). NFT checks run in this order: `max_price` syntax, the recipient (whose errors hide later ones), then price and gift. The outcome arrives by webhook (see callbacks).
         */
        post: operations["createOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one order
         * @description Another partner's order is `not_found` too. With `wait=N` the answer comes as soon as the order is final (completed, or failed/canceled outside manual review), or after N seconds with the order as it is then (check `status`); an order already final answers at once. A key may have `ORDER_WAIT_MAX_PER_KEY` (default 10) waiting requests open at once; past that 429 `rate_limited` with scope `wait` (`limit` is that number, `window_seconds` the longest wait, 30, and `retry_after` when the key's soonest wait ends at the latest). Waiting is a convenience: webhooks stay the reliable channel. Other query parameters are ignored.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nft/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gift collections
         * @description Rate limited per key (scope `nft_catalog`). The catalog is cached for up to one minute.
         */
        get: operations["listCollections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nft/gifts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gifts of a collection
         * @description Sorted by price, keyset paging: a cursor never repeats or skips an item. Rate limited per key (scope `nft_catalog`).
         */
        get: operations["listGifts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/nft/gifts/{gift}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The price of one gift
         * @description A fresh quote. `available: false` means sold or delisted: an order for it is refused. Rate limited per key (scope `nft_catalog`).
         */
        get: operations["getGift"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The partner's ledger
         * @description Every movement of the balances: top-ups, order debits, refunds, each with the balance after it. Newest first, keyset paging like GET /orders: pass `next_cursor` back as `cursor`.
         */
        get: operations["listLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Order statistics
         * @description The orders created from `from` to `to` (both inclusive; default: the 30 days up to now; at most 366 days, else 400 `bad_range`), per type, status (the status now) and currency: how many, their spend (partner prices debited), how many were refunded and for how much, and the net spend. A refund counts with its order, whenever it was made. `group_by=day` splits the same figures by the UTC day of creation (`day`, `YYYY-MM-DD`). `totals` sums every order per currency.
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export own orders as CSV
         * @description Every order that GET /orders would list with the same filters (no paging). Columns: order_id, created_at, type, status, partner_price, currency, price_usd_ref, quantity, recipient, label, completed_at, refunded, client_reference, gift, failure_stage, failure_reason; created_at is local time with microseconds and no offset, completed_at has +00:00, refunded is true or false, gift is the gift identifier of an nft order, failure_stage and failure_reason those of a failed nft order. RFC 4180 CSV in UTF-8 (`text/csv; charset=utf-8`, a `Content-Disposition` filename): a header line, CRLF line ends, a field quoted when it holds a comma, a quote or a line break, quotes doubled; an empty field is null. Money as decimal strings (2 places USD, 3 TON), times as in the JSON answers. Newest first, read in short pages and streamed as it is read, so any number of rows can be exported (not one snapshot: an order created after the export began is not in it, and one whose status changes meanwhile shows the status of the moment it was read); a range with no rows is the header line alone (200). Bad filters are refused with the JSON errors of the list endpoint before any row is sent. Spreadsheet-safe: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it as text and never runs it as a formula (recipients too: `'@durov`; strip the `'` when reading the file as data); plain numbers such as `-12.50` stay as they are.
         */
        get: operations["exportOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the ledger as CSV
         * @description Every entry that GET /ledger would list with the same filters (no paging). Columns: entry_id, created_at, currency, kind, amount, balance_after, order_id, topup_id, note; amount is signed, created_at has +00:00. RFC 4180 CSV in UTF-8 (`text/csv; charset=utf-8`, a `Content-Disposition` filename): a header line, CRLF line ends, a field quoted when it holds a comma, a quote or a line break, quotes doubled; an empty field is null. Money as decimal strings (2 places USD, 3 TON), times as in the JSON answers. Newest first, read in short pages and streamed as it is read, so any number of rows can be exported (not one snapshot: an order created after the export began is not in it, and one whose status changes meanwhile shows the status of the moment it was read); a range with no rows is the header line alone (200). Bad filters are refused with the JSON errors of the list endpoint before any row is sent. Spreadsheet-safe: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it as text and never runs it as a formula (recipients too: `'@durov`; strip the `'` when reading the file as data); plain numbers such as `-12.50` stay as they are.
         */
        get: operations["exportLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook delivery log
         * @description The partner's own webhook deliveries, newest first, each with every request made (number, time, HTTP status or error, duration). Keyset paging like GET /orders: pass `next_cursor` back as `cursor`; the same codes for a bad cursor, limit or unknown parameter.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook again now
         * @description Sends the delivery's webhook again now: the same body and `X-Webhook-Id`, signed with the current secret (after a regenerate, the new one), to the delivery's address, under the same address checks as every attempt. Answers the delivery once the request is done, the new attempt last with `manual: true`. It is outside the retry schedule: it uses none of the 6 scheduled attempts, and a pending delivery keeps its status and `next_attempt_at` whatever the outcome (its scheduled attempts still come; drop duplicates by `X-Webhook-Id`). A `failed` delivery that the receiver now takes (2xx) becomes `delivered`; a failed redelivery changes nothing but the log. `X-Webhook-Attempt` counts every request of the webhook, redeliveries included. Another partner's or an unknown delivery is 404 `not_found`.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test webhook
         * @description Sends a signed `webhook.test` event (see callbacks) to the Webhook block's address now, under the same address checks as every webhook, and answers the delivery it made (also in GET /webhook-deliveries). It is sent once and never retried: `status` is `delivered` on a 2xx, else `failed` (the attempt says why, or `rejected_reason` when the address was refused before sending). No body is needed. 409 `webhook_not_configured` until both an address and a secret are saved.
         */
        post: operations["sendTestWebhook"];
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
        ErrorObject: {
            code: string;
            detail: string;
        } & {
            [key: string]: unknown;
        };
        FlatError: {
            code: string;
            detail: string;
        } & {
            [key: string]: unknown;
        };
        NestedError: {
            detail: components["schemas"]["ErrorObject"];
        } & {
            [key: string]: unknown;
        };
        InsufficientBalanceError: {
            /** @enum {string} */
            code: "insufficient_balance";
            detail: string;
            /** @enum {string} */
            currency: "USD" | "TON";
            /** @description the balance of that currency now (2 decimals USD, 3 TON) */
            balance: string;
        };
        PriceChangedError: {
            /** @enum {string} */
            code: "price_changed";
            detail: string;
            /**
             * @description the partner price of the gift now
             * @example 12.345
             */
            current_price: string;
            /** @enum {string} */
            currency: "TON";
        };
        BadQuantityError: {
            /** @enum {string} */
            code: "bad_quantity";
            detail: string;
            min: number;
            max: number;
        };
        BadParamError: {
            /** @enum {string} */
            code: "bad_param" | "bad_attr";
            detail: string;
            /** @description the query parameter at fault */
            param: string;
        };
        BadWebhookUrlError: {
            /** @enum {string} */
            code: "bad_webhook_url";
            detail: string;
            /** @enum {string} */
            reason: "bad_url" | "bad_scheme" | "bad_host" | "bad_port" | "credentials_in_url" | "private_host" | "too_long";
        };
        ProductUnavailableError: {
            /** @enum {string} */
            code: "product_unavailable";
            detail: string;
            /** @enum {string} */
            reason: "upstream_unavailable" | "product_disabled";
            /** @description upstream_unavailable: seconds before a sensible retry (also the Retry-After header) */
            retry_after?: number;
        };
        ResolverError: {
            /** @enum {string} */
            code: "resolver_error";
            detail: string;
            /** @description seconds before a sensible retry (also the Retry-After header) */
            retry_after: number;
        };
        ValidationError: {
            /** @enum {string} */
            code: "validation_error";
            detail: string;
            /** @description the body field at fault, when one is (for example client_reference) */
            field?: string;
        };
        StorageUnavailableError: {
            detail: {
                /** @enum {string} */
                code: "storage_unavailable";
                detail: string;
                /**
                 * @description what the database answered
                 * @enum {string}
                 */
                reason: "disk_full" | "io_error" | "read_only" | "busy";
            };
            /**
             * @description what the database answered
             * @enum {string}
             */
            reason: "disk_full" | "io_error" | "read_only" | "busy";
        };
        RateLimitedError: {
            detail: {
                /** @enum {string} */
                code: "rate_limited";
                detail: string;
                /**
                 * @description not_found: unknown URLs, counted per client address with the budget of a key
                 * @enum {string}
                 */
                scope: "key" | "validate_recipient" | "nft_catalog" | "nft_orders" | "wait" | "not_found";
                /** @description requests per window_seconds; for scope wait: the waiting requests a key may have open at once (window_seconds is then the longest wait) */
                limit: number;
                window_seconds: number;
                /** @description seconds; also the Retry-After header */
                retry_after: number;
            };
            /**
             * @description not_found: unknown URLs, counted per client address with the budget of a key
             * @enum {string}
             */
            scope: "key" | "validate_recipient" | "nft_catalog" | "nft_orders" | "wait" | "not_found";
            /** @description requests per window_seconds; for scope wait: the waiting requests a key may have open at once (window_seconds is then the longest wait) */
            limit: number;
            window_seconds: number;
            /** @description seconds; also the Retry-After header */
            retry_after: number;
        };
        PartnerAccount: {
            partner_id: number;
            /** @enum {string} */
            status: "active";
            /**
             * @description the dollar balance (kept for compatibility)
             * @example 15.75
             */
            balance: string;
            /** @enum {string} */
            currency: "USD";
            balances: {
                /**
                 * @description USD amount, two decimals
                 * @example 15.75
                 */
                USD: string;
                /**
                 * @description TON amount, three decimals
                 * @example 12.345
                 */
                TON: string;
            };
            /**
             * @description TON amount, three decimals
             * @example 12.345
             */
            nft_balance: string;
            /** @enum {string} */
            nft_currency: "TON";
            pricing: {
                note: string;
            };
            limits: {
                api_rate_limit: number;
                api_rate_burst: number;
                nft_catalog_rate_limit: number;
                nft_orders_rate_limit: number;
                validate_recipient_rate_limit: number;
                stars_min_per_order: number;
                stars_max_per_order: number;
                premium_months: number[];
                /**
                 * @description the most one NFT order may cost; null: no cap
                 * @example 12.345
                 */
                nft_max_order_ton: string | null;
            };
        };
        Catalog: {
            /** @enum {string} */
            currency: "USD";
            stars: {
                /**
                 * @description USD amount, two decimals
                 * @example 15.75
                 */
                price_per_1000: string;
                /** @description reference only: price_per_1000 / 1000 */
                price_per_star: string;
                /** @enum {string} */
                currency: "USD";
                min_per_order: number;
                max_per_order: number;
                /** @description whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable) */
                available: boolean;
                /**
                 * @description only when available is false: the reason of the 503 an order gets now
                 * @enum {string}
                 */
                reason?: "product_disabled" | "upstream_unavailable";
            };
            premium: {
                3: {
                    /**
                     * @description USD amount, two decimals
                     * @example 15.75
                     */
                    partner_price: string;
                    /** @enum {string} */
                    currency: "USD";
                    /** @description whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable) */
                    available: boolean;
                    /**
                     * @description only when available is false: the reason of the 503 an order gets now
                     * @enum {string}
                     */
                    reason?: "product_disabled" | "upstream_unavailable";
                };
                6: {
                    /**
                     * @description USD amount, two decimals
                     * @example 15.75
                     */
                    partner_price: string;
                    /** @enum {string} */
                    currency: "USD";
                    /** @description whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable) */
                    available: boolean;
                    /**
                     * @description only when available is false: the reason of the 503 an order gets now
                     * @enum {string}
                     */
                    reason?: "product_disabled" | "upstream_unavailable";
                };
                12: {
                    /**
                     * @description USD amount, two decimals
                     * @example 15.75
                     */
                    partner_price: string;
                    /** @enum {string} */
                    currency: "USD";
                    /** @description whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable) */
                    available: boolean;
                    /**
                     * @description only when available is false: the reason of the 503 an order gets now
                     * @enum {string}
                     */
                    reason?: "product_disabled" | "upstream_unavailable";
                };
            };
            nft: {
                /** @description whether it can be ordered now: false while it is disabled or its supplier is down (an order gets 503 product_unavailable) */
                available: boolean;
                /**
                 * @description only when available is false: the reason of the 503 an order gets now
                 * @enum {string}
                 */
                reason?: "product_disabled" | "upstream_unavailable";
                /** @enum {string} */
                pricing_model: "per_gift";
                /** @enum {string} */
                currency: "TON";
                /** @enum {string} */
                balance: "nft_balance";
                catalog: string;
                quote: string;
                /**
                 * @description the most one NFT order may cost; null: no cap
                 * @example 12.345
                 */
                max_order_ton: string | null;
            };
        };
        CatalogUnavailable: {
            /** @enum {boolean} */
            unavailable: true;
            /** @enum {string} */
            reason: "cost_unavailable";
        };
        ProductsResponse: components["schemas"]["Catalog"] | components["schemas"]["CatalogUnavailable"];
        ValidateRecipientRequest: {
            /** @enum {string} */
            type: "stars" | "premium" | "nft";
            /** @example @durov */
            username: string;
        } & {
            [key: string]: unknown;
        };
        ValidateRecipientResult: {
            /** @enum {boolean} */
            ok: true;
            /** @enum {string} */
            type: "stars" | "premium" | "nft";
            /** @description normalised username, no @ */
            username: string;
            /** @description the profile name */
            name: string;
            /**
             * @description premium only: an active subscription now; an order waits until it ends (not a refusal)
             * @enum {boolean}
             */
            already_premium?: true;
            /** @description nft only */
            can_receive_gifts?: boolean;
        };
        ValidateGameRequest: {
            username: string;
        } & {
            [key: string]: unknown;
        };
        ValidateGameResult: {
            /** @enum {boolean} */
            ok: true;
            username: string;
            /** @enum {boolean} */
            found: true;
            name: string | null;
        };
        Order: {
            /**
             * @description opaque: `PA-<number>` (stars, premium) or `pa_<uuid>` (nft)
             * @example PA-100001
             */
            order_id: string;
            /** @enum {string} */
            type: "stars" | "premium" | "nft";
            /** @enum {string} */
            status: "processing" | "completed" | "partial" | "canceled" | "failed";
            /** @description the amount debited, in `currency` (2 decimals USD, 3 TON) */
            partner_price: string;
            /** @enum {string} */
            currency: "USD" | "TON";
            /**
             * @description nft only: reporting reference
             * @example 15.75
             */
            price_usd_ref?: string | null;
            /** @description stars: the count; premium: months; nft: 1 */
            quantity: number;
            /** @description as given */
            recipient: string;
            /**
             * @description always Russian
             * @example 100 звёзд Telegram для @durov
             */
            label: string;
            /**
             * @description ISO 8601 local time with microseconds, no offset
             * @example 2026-03-01T12:00:00.000000
             */
            created_at: string;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            completed_at: string | null;
            refunded: boolean;
            /**
             * @description the partner's own reference given at creation; null when none was given
             * @example shop-order-8841
             */
            client_reference: string | null;
            /** @description nft only */
            gift?: {
                gift: string;
                name: string;
                num: number;
                collection: string;
                image: string;
                /**
                 * @description TON amount, three decimals
                 * @example 12.345
                 */
                price_ton: string;
                attributes: {
                    model: string;
                    backdrop: string;
                    symbol: string;
                };
            };
            /** @description nft only; null until completed */
            delivery?: {
                nft_public_url: string;
                ton_explorer_url: string;
                transfer_hash: string;
                /**
                 * @description ISO 8601 with UTC offset
                 * @example 2026-03-01T12:00:03.000000+00:00
                 */
                completed_at: string;
            } | null;
            /** @description nft only; null unless failed */
            failure?: {
                /** @enum {string} */
                stage: "create" | "confirm" | "queue" | "pricing" | "balance" | "purchase" | "transfer";
                /** @description gift_not_for_sale, gift_reserved, price_above_cap, amount_above_cap, invalid_price, invalid_upstream_price, pricing_failed, gift_unavailable, invalid_recipient, insufficient_funds, nft_disabled, hub_rejected, queue_rejected, delivery_failed, manual_refund */
                reason: string;
            } | null;
            /** @description always null */
            retail: string | null;
        };
        WebhookOrder: {
            /**
             * @description opaque: `PA-<number>` (stars, premium) or `pa_<uuid>` (nft)
             * @example PA-100001
             */
            order_id: string;
            /** @enum {string} */
            type: "stars" | "premium" | "nft";
            /** @enum {string} */
            status: "processing" | "completed" | "partial" | "canceled" | "failed";
            /** @description the amount debited, in `currency` (2 decimals USD, 3 TON) */
            partner_price: string;
            /** @enum {string} */
            currency: "USD" | "TON";
            /**
             * @description nft only: reporting reference
             * @example 15.75
             */
            price_usd_ref?: string | null;
            /** @description stars: the count; premium: months; nft: 1 */
            quantity: number;
            /** @description as given */
            recipient: string;
            /**
             * @description always Russian
             * @example 100 звёзд Telegram для @durov
             */
            label: string;
            /**
             * @description ISO 8601 local time with microseconds, no offset
             * @example 2026-03-01T12:00:00.000000
             */
            created_at: string;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            completed_at: string | null;
            refunded: boolean;
            /**
             * @description the partner's own reference given at creation; null when none was given
             * @example shop-order-8841
             */
            client_reference: string | null;
            /** @description nft only */
            gift?: {
                gift: string;
                name: string;
                num: number;
                collection: string;
                image: string;
                /**
                 * @description TON amount, three decimals
                 * @example 12.345
                 */
                price_ton: string;
                attributes: {
                    model: string;
                    backdrop: string;
                    symbol: string;
                };
            };
            /** @description nft only; null until completed */
            delivery?: {
                nft_public_url: string;
                ton_explorer_url: string;
                transfer_hash: string;
                /**
                 * @description ISO 8601 with UTC offset
                 * @example 2026-03-01T12:00:03.000000+00:00
                 */
                completed_at: string;
            } | null;
            /** @description nft only; null unless failed */
            failure?: {
                /** @enum {string} */
                stage: "create" | "confirm" | "queue" | "pricing" | "balance" | "purchase" | "transfer";
                /** @description gift_not_for_sale, gift_reserved, price_above_cap, amount_above_cap, invalid_price, invalid_upstream_price, pricing_failed, gift_unavailable, invalid_recipient, insufficient_funds, nft_disabled, hub_rejected, queue_rejected, delivery_failed, manual_refund */
                reason: string;
            } | null;
        };
        StarsParams: {
            /** @description STARS_MIN_PER_ORDER..STARS_MAX_PER_ORDER (default 50..50000) */
            quantity: number;
            recipient: string;
        } & {
            [key: string]: unknown;
        };
        PremiumParams: {
            months: 3 | 6 | 12;
            recipient: string;
        } & {
            [key: string]: unknown;
        };
        NftParams: {
            /** @example HomemadeCake-6344 */
            gift: string;
            recipient: string;
            /**
             * @description positive TON amount, any number of decimals; the order is refused (409 price_changed) if the price is above it
             * @example 15.5
             */
            max_price: string;
        } & {
            [key: string]: unknown;
        };
        StarsOrderRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "stars";
            /** @description mandatory; the same key and params return the same order with one debit */
            idempotency_key: string;
            /** @description per-order webhook address (the secret is always the dashboard one) */
            webhook_url?: string;
            /**
             * @description optional: your own reference, 1 to 128 printable characters, else 400 validation_error with field client_reference; stored, part of the idempotency fingerprint, returned in every order view and webhook body, and a filter of GET /orders
             * @example shop-order-8841
             */
            client_reference?: string | null;
            params: components["schemas"]["StarsParams"];
        } & {
            [key: string]: unknown;
        };
        PremiumOrderRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "premium";
            /** @description mandatory; the same key and params return the same order with one debit */
            idempotency_key: string;
            /** @description per-order webhook address (the secret is always the dashboard one) */
            webhook_url?: string;
            /**
             * @description optional: your own reference, 1 to 128 printable characters, else 400 validation_error with field client_reference; stored, part of the idempotency fingerprint, returned in every order view and webhook body, and a filter of GET /orders
             * @example shop-order-8841
             */
            client_reference?: string | null;
            params: components["schemas"]["PremiumParams"];
        } & {
            [key: string]: unknown;
        };
        NftOrderRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "nft";
            /** @description mandatory; the same key and params return the same order with one debit */
            idempotency_key: string;
            /** @description per-order webhook address (the secret is always the dashboard one) */
            webhook_url?: string;
            /**
             * @description optional: your own reference, 1 to 128 printable characters, else 400 validation_error with field client_reference; stored, part of the idempotency fingerprint, returned in every order view and webhook body, and a filter of GET /orders
             * @example shop-order-8841
             */
            client_reference?: string | null;
            params: components["schemas"]["NftParams"];
        } & {
            [key: string]: unknown;
        };
        OrderRequest: components["schemas"]["StarsOrderRequest"] | components["schemas"]["PremiumOrderRequest"] | components["schemas"]["NftOrderRequest"];
        OrderList: {
            items: components["schemas"]["Order"][];
            count: number;
            next_cursor: string | null;
        };
        GiftItem: {
            gift: string;
            name: string;
            num: number;
            collection: string;
            image: string;
            /**
             * @description TON amount, three decimals
             * @example 12.345
             */
            price_ton: string;
            /** @description what the list filters by (model, backdrop, symbol) */
            attributes: {
                model: string;
                backdrop: string;
                symbol: string;
            };
            /**
             * @description final TON amount incl. transfer and network fees, rounded up to 0.001
             * @example 12.345
             */
            partner_price: string;
            /** @enum {string} */
            currency: "TON";
            /**
             * @description USD amount, two decimals
             * @example 15.75
             */
            price_usd_ref: string;
        };
        GiftList: {
            /** @enum {string} */
            currency: "TON";
            items: components["schemas"]["GiftItem"][];
            count: number;
            next_cursor: string | null;
            /** @enum {string} */
            source_status: "live";
            applied_filters: {
                [key: string]: string;
            };
            ignored_params: string[];
        };
        GiftQuote: {
            gift: string;
            name: string;
            num: number;
            collection: string;
            image: string;
            /**
             * @description TON amount, three decimals
             * @example 12.345
             */
            price_ton: string;
            /** @description what the list filters by (model, backdrop, symbol) */
            attributes: {
                model: string;
                backdrop: string;
                symbol: string;
            };
            /**
             * @description final TON amount incl. transfer and network fees, rounded up to 0.001
             * @example 12.345
             */
            partner_price: string;
            /** @enum {string} */
            currency: "TON";
            /**
             * @description USD amount, two decimals
             * @example 15.75
             */
            price_usd_ref: string;
            available: boolean;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            quoted_at: string;
            /**
             * @description the most one order may cost; null: no cap
             * @example 12.345
             */
            max_order_price: string | null;
        };
        CollectionList: {
            /** @enum {string} */
            currency: "TON";
            items: {
                collection: string;
                name: string;
                /** @description gifts listed now */
                count: number;
                /**
                 * @description TON amount, three decimals
                 * @example 12.345
                 */
                floor_price_ton: string | null;
                /**
                 * @description TON amount, three decimals
                 * @example 12.345
                 */
                floor_partner_price: string | null;
                /** @enum {string} */
                currency: "TON";
            }[];
            count: number;
        };
        OrderEvent: {
            /** @enum {string} */
            event: "order.completed" | "order.failed";
            order_id: string;
            data: components["schemas"]["WebhookOrder"];
        };
        RefundEvent: {
            /** @enum {string} */
            event: "order.refunded";
            order_id: string;
            data: {
                order_id: string;
                /** @description a JSON number (historical exception to money-as-strings) */
                refund_amount: number;
                /** @enum {string} */
                reason: "stars_failed" | "premium_canceled" | "nft_failed" | "nft_manual_refund";
                /** @enum {string} */
                currency: "USD" | "TON";
                /**
                 * @description nft refunds: the value to reconcile against
                 * @example 12.345
                 */
                refund_amount_ton?: string;
                /**
                 * @description the order's client_reference; null when none was given
                 * @example shop-order-8841
                 */
                client_reference: string | null;
            };
        };
        LedgerEntry: {
            entry_id: number;
            /**
             * @description topup: a credited deposit; order_debit: an order's price; order_refund: its return; adjustment: support's correction of a mistaken credit or debit, either sign, with its `note`
             * @enum {string}
             */
            kind: "topup" | "order_debit" | "order_refund" | "adjustment";
            /** @enum {string} */
            currency: "USD" | "TON";
            /**
             * @description signed: negative for a debit (2 decimals USD, 3 TON)
             * @example -1.58
             */
            amount: string;
            /**
             * @description the balance of `currency` right after this entry
             * @example 48.42
             */
            balance_after: string;
            /** @description the order of a debit or refund */
            order_id: string | null;
            /** @description the top-up of a credit */
            topup_id: string | null;
            /** @description why support adjusted the balance (an adjustment only; null otherwise) */
            note: string | null;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            created_at: string;
        };
        LedgerList: {
            items: components["schemas"]["LedgerEntry"][];
            count: number;
            next_cursor: string | null;
        };
        StatsItem: {
            /**
             * @description the UTC day of creation with group_by=day, else null
             * @example 2026-03-01
             */
            day: string | null;
            /** @enum {string} */
            type: "stars" | "premium" | "nft";
            /**
             * @description the status now
             * @enum {string}
             */
            status: "processing" | "completed" | "partial" | "canceled" | "failed";
            /** @enum {string} */
            currency: "USD" | "TON";
            /** @description orders */
            count: number;
            /**
             * @description their partner prices, debited when they were created (2 decimals USD, 3 TON)
             * @example 15.80
             */
            spend: string;
            /** @description of these, orders refunded */
            refunded_count: number;
            /**
             * @description the money returned by those refunds
             * @example 0.79
             */
            refunded_amount: string;
            /**
             * @description spend less refunded_amount
             * @example 15.01
             */
            net_spend: string;
        };
        StatsTotal: {
            /** @enum {string} */
            currency: "USD" | "TON";
            /** @description orders */
            count: number;
            /**
             * @description their partner prices, debited when they were created (2 decimals USD, 3 TON)
             * @example 15.80
             */
            spend: string;
            /** @description of these, orders refunded */
            refunded_count: number;
            /**
             * @description the money returned by those refunds
             * @example 0.79
             */
            refunded_amount: string;
            /**
             * @description spend less refunded_amount
             * @example 15.01
             */
            net_spend: string;
        };
        StatsResponse: {
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            from: string;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            to: string;
            /** @description "day" with group_by=day, else null */
            group_by: string | null;
            /** @description only combinations with orders; by day, type, status */
            items: components["schemas"]["StatsItem"][];
            /** @description USD and TON, zeros included */
            totals: components["schemas"]["StatsTotal"][];
        };
        WebhookAttempt: {
            /** @description the X-Webhook-Attempt sent: scheduled attempts and manual redeliveries are counted together */
            number: number;
            /** @description true for a redelivery asked for with POST /webhook-deliveries/{delivery_id}/redeliver */
            manual: boolean;
            /**
             * @description when the request was sent (its X-Timestamp)
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            sent_at: string;
            /** @description the receiver's HTTP status; null when no answer came (timeout, connection error) or no request could be made */
            http_status: number | null;
            /**
             * @description why the attempt failed: `HTTP 500`, `timeout`, a connection error; for a redelivery that could not be sent, `address refused: <reason>` or `dns: …`; null on success
             * @example HTTP 503
             */
            error: string | null;
            /** @description how long the exchange took, in milliseconds; null when no request was made */
            duration_ms: number | null;
        };
        WebhookDelivery: {
            /**
             * @description the X-Webhook-Id of every request of this webhook
             * @example 5f0c8e2a9b1d4c7e8f6a3b21
             */
            delivery_id: string;
            /** @enum {string} */
            event: "order.completed" | "order.failed" | "order.refunded" | "balance.low" | "webhook.test";
            /** @description the order the event is about (balance.low: the order whose debit took the balance below the threshold); null for webhook.test */
            order_id: string | null;
            /** @description the address it is sent to (the order's webhook_url, else the Webhook block's address when the event happened) */
            url: string;
            /**
             * @description pending: scheduled attempts remain; delivered: a 2xx came back; failed: the schedule is used up, or the address was refused before sending (see rejected_reason)
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            /** @description every request made, oldest first */
            attempts: components["schemas"]["WebhookAttempt"][];
            /**
             * @description when the next scheduled attempt is due; null when none is
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            next_attempt_at: string | null;
            /** @description why nothing was sent: the address was refused (private_address, dns_failure, or a bad_webhook_url reason), or the secret is missing (no_secret) or does not open with the service's key (secret_unreadable); null otherwise */
            rejected_reason: string | null;
            /** @description the error of the last request, or of the last DNS lookup that put an attempt off */
            last_error: string | null;
            /**
             * @description ISO 8601 with UTC offset
             * @example 2026-03-01T12:00:03.000000+00:00
             */
            created_at: string;
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDelivery"][];
            count: number;
            next_cursor: string | null;
        };
        TestEvent: {
            /** @enum {string} */
            event: "webhook.test";
            /** @description always null: a test is about no order */
            order_id: string | null;
            data: {
                partner_id: number;
                /**
                 * @description ISO 8601 with UTC offset
                 * @example 2026-03-01T12:00:03.000000+00:00
                 */
                created_at: string;
            };
        };
        BalanceLowEvent: {
            /** @enum {string} */
            event: "balance.low";
            /** @description the order whose debit took the balance below the threshold */
            order_id: string;
            data: {
                /** @enum {string} */
                currency: "USD" | "TON";
                /**
                 * @description the balance right after the debit (2 decimals USD, 3 TON)
                 * @example 87.40
                 */
                balance: string;
                /**
                 * @description the alert threshold of that currency
                 * @example 100.00
                 */
                threshold: string;
                order_id: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerAccount"];
                };
            };
            /** @description `bad_request` (nested): The request is malformed. */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    getProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog, or the unavailable marker. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductsResponse"];
                };
            };
            /** @description `bad_request` (nested): The request is malformed. */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    validateRecipient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateRecipientRequest"];
            };
        };
        responses: {
            /** @description The recipient exists. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateRecipientResult"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_type` (nested): type must be one of stars, premium, nft.
             *
             *     `recipient_required` (flat): recipient is required.
             *
             *     `recipient_not_found` (flat): The recipient was not found or cannot be reached.
             *
             *     `bad_json` (nested): The request body is not valid JSON.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "recipient_required" | "recipient_not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_type" | "bad_json";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `payload_too_large` (nested): The request body is too large. */
            413: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type` (nested): Send the body as application/json. */
            415: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `resolver_error` (flat): Recipient resolution failed. Retry later. */
            502: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (resolver_error). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResolverError"];
                };
            };
            /**
             * @description `product_unavailable` (flat): The product is temporarily unavailable.
             *
             *     `storage_unavailable` (nested): Storage is temporarily unavailable: nothing was written. Retry later.
             */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable, storage_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"] | components["schemas"]["StorageUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    validateGame: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateGameRequest"];
            };
        };
        responses: {
            /** @description The user exists. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateGameResult"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `recipient_required` (flat): recipient is required.
             *
             *     `recipient_not_found` (flat): The recipient was not found or cannot be reached.
             *
             *     `bad_json` (nested): The request body is not valid JSON.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "recipient_required" | "recipient_not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_json";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `payload_too_large` (nested): The request body is too large. */
            413: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type` (nested): Send the body as application/json. */
            415: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `product_unavailable` (flat): The product is temporarily unavailable.
             *
             *     `storage_unavailable` (nested): Storage is temporarily unavailable: nothing was written. Retry later.
             */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable, storage_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"] | components["schemas"]["StorageUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /** @description processing, completed, partial, canceled or failed */
                status?: "processing" | "completed" | "partial" | "canceled" | "failed";
                /** @description stars, premium or nft */
                type?: "stars" | "premium" | "nft";
                /** @description only orders created with exactly this client_reference (1 to 128 printable characters, else 400 bad_param) */
                client_reference?: string;
                /** @description created at or after: ISO 8601 date or date-time (offset optional), or unix seconds */
                from?: string;
                /** @description created at or before: same formats as from */
                to?: string;
                /** @description the next_cursor of the previous page */
                cursor?: string;
                /** @description page size, 1 to 200, default 50 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderList"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_status` (flat): status must be one of processing, completed, partial, canceled, failed.
             *
             *     `bad_type` (nested): type must be one of stars, premium, nft.
             *
             *     `bad_time` (flat): from/to must be an ISO 8601 date or date-time, or unix seconds.
             *
             *     `bad_limit` (flat): limit is out of range.
             *
             *     `bad_cursor` (flat): The cursor is invalid.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_status" | "bad_time" | "bad_limit" | "bad_cursor";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderRequest"];
            };
        };
        responses: {
            /** @description The order (a replay answers the same order). */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "order_id": "PA-100001",
                     *       "type": "stars",
                     *       "status": "processing",
                     *       "partner_price": "1.58",
                     *       "currency": "USD",
                     *       "retail": null,
                     *       "quantity": 100,
                     *       "recipient": "@durov",
                     *       "label": "100 звёзд Telegram для @durov",
                     *       "created_at": "2026-03-01T12:00:00.000000",
                     *       "completed_at": null,
                     *       "refunded": false,
                     *       "client_reference": null
                     *     }
                     */
                    "application/json": components["schemas"]["Order"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_json` (nested): The request body is not valid JSON.
             *
             *     `idempotency_required` (nested): idempotency_key is required.
             *
             *     `bad_type` (nested): type must be one of stars, premium, nft.
             *
             *     `validation_error` (flat): The request body is invalid.
             *
             *     `bad_params` (flat): params must be an object.
             *
             *     `bad_quantity` (flat): quantity must be a whole number of stars within the limits.
             *
             *     `bad_months` (flat): months must be 3, 6 or 12.
             *
             *     `bad_gift` (flat): The gift identifier is not recognised.
             *
             *     `bad_max_price` (flat): max_price must be a positive TON amount as a string.
             *
             *     `recipient_required` (flat): recipient is required.
             *
             *     `recipient_not_found` (flat): The recipient was not found or cannot be reached.
             *
             *     `bad_webhook_url` (flat): The webhook address is not acceptable.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"] | components["schemas"]["BadQuantityError"] | components["schemas"]["BadWebhookUrlError"] | {
                        /** @enum {string} */
                        code: "bad_params" | "bad_months" | "bad_gift" | "bad_max_price" | "recipient_required" | "recipient_not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_json" | "idempotency_required" | "bad_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `insufficient_balance` (flat): The balance is too low for this order. */
            402: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientBalanceError"];
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `gift_not_for_sale` (flat): The gift is sold or delisted. Nothing was debited.
             *
             *     `gift_reserved` (flat): An unfinished order exists for this gift.
             *
             *     `price_changed` (flat): The gift price is above max_price.
             *
             *     `idempotency_key_reuse` (flat): This idempotency_key was used with different parameters.
             *
             *     `order_in_progress` (flat): An order with this idempotency_key is still being created. Retry in a second.
             *
             *     `deferred_order_exists` (flat): The account already has an unfinished Premium order.
             */
            409: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PriceChangedError"] | {
                        /** @enum {string} */
                        code: "gift_not_for_sale" | "gift_reserved" | "idempotency_key_reuse" | "order_in_progress" | "deferred_order_exists";
                        detail: string;
                    };
                };
            };
            /** @description `payload_too_large` (nested): The request body is too large. */
            413: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type` (nested): Send the body as application/json. */
            415: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `resolver_error` (flat): Recipient resolution failed. Retry later. */
            502: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (resolver_error). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResolverError"];
                };
            };
            /**
             * @description `product_unavailable` (flat): The product is temporarily unavailable.
             *
             *     `ledger_unavailable` (flat): The idempotency check is unavailable. Retry the same request with the same key.
             *
             *     `storage_unavailable` (nested): Storage is temporarily unavailable: nothing was written. Retry later.
             */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable, storage_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"] | components["schemas"]["StorageUnavailableError"] | {
                        /** @enum {string} */
                        code: "ledger_unavailable";
                        detail: string;
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: {
                /** @description seconds to wait for the outcome: a whole number from 1 to 30 (else 400 bad_param) */
                wait?: number;
            };
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order (final, or as it is when the wait ran out). */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `route_not_found` (nested): No such endpoint.
             *
             *     `not_found` (flat): Not found.
             */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    listCollections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collections. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionList"];
                };
            };
            /** @description `bad_request` (nested): The request is malformed. */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `product_unavailable` (flat): The product is temporarily unavailable. */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    listGifts: {
        parameters: {
            query: {
                /** @description collection identifier (required) */
                collection: string;
                /** @description price_asc (default) or price_desc */
                sort?: "price_asc" | "price_desc";
                /** @description the next_cursor of the previous page (same collection and sort) */
                cursor?: string;
                /** @description page size, 1 to 100, default 20 */
                limit?: number;
                /** @description attribute filter (also attr_model) */
                model?: string;
                /** @description attribute filter (also attr_backdrop) */
                backdrop?: string;
                /** @description attribute filter (also attr_symbol) */
                symbol?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of gifts. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GiftList"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `collection_required` (flat): collection is required.
             *
             *     `bad_sort` (flat): sort must be price_asc or price_desc.
             *
             *     `bad_cursor` (flat): The cursor is invalid.
             *
             *     `bad_attr` (flat): Unknown attribute filter.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "collection_required" | "bad_sort" | "bad_cursor";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `route_not_found` (nested): No such endpoint.
             *
             *     `not_found` (flat): Not found.
             */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `product_unavailable` (flat): The product is temporarily unavailable. */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    getGift: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example HomemadeCake-6344 */
                gift: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quote. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GiftQuote"];
                };
            };
            /** @description `bad_request` (nested): The request is malformed. */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `route_not_found` (nested): No such endpoint.
             *
             *     `not_found` (flat): Not found.
             */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `product_unavailable` (flat): The product is temporarily unavailable. */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (product_unavailable; product_unavailable with reason upstream_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    listLedger: {
        parameters: {
            query?: {
                /** @description USD or TON (default: both) */
                currency?: "USD" | "TON";
                /** @description created at or after: ISO 8601 date or date-time (offset optional), or unix seconds */
                from?: string;
                /** @description created at or before: same formats as from */
                to?: string;
                /** @description the next_cursor of the previous page */
                cursor?: string;
                /** @description page size, 1 to 200, default 50 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerList"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_time` (flat): from/to must be an ISO 8601 date or date-time, or unix seconds.
             *
             *     `bad_limit` (flat): limit is out of range.
             *
             *     `bad_cursor` (flat): The cursor is invalid.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_time" | "bad_limit" | "bad_cursor";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: {
                /** @description created at or after: ISO 8601 date or date-time (offset optional), or unix seconds; default 30 days before to */
                from?: string;
                /** @description created at or before: same formats as from; default now */
                to?: string;
                /** @description `day`: one set of figures per UTC day */
                group_by?: "day";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "2026-03-01T00:00:00.000000+00:00",
                     *       "to": "2026-03-31T23:59:59.000000+00:00",
                     *       "group_by": null,
                     *       "items": [
                     *         {
                     *           "day": null,
                     *           "type": "stars",
                     *           "status": "completed",
                     *           "currency": "USD",
                     *           "count": 10,
                     *           "spend": "15.80",
                     *           "refunded_count": 0,
                     *           "refunded_amount": "0.00",
                     *           "net_spend": "15.80"
                     *         }
                     *       ],
                     *       "totals": [
                     *         {
                     *           "currency": "USD",
                     *           "count": 10,
                     *           "spend": "15.80",
                     *           "refunded_count": 0,
                     *           "refunded_amount": "0.00",
                     *           "net_spend": "15.80"
                     *         },
                     *         {
                     *           "currency": "TON",
                     *           "count": 0,
                     *           "spend": "0.000",
                     *           "refunded_count": 0,
                     *           "refunded_amount": "0.000",
                     *           "net_spend": "0.000"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["StatsResponse"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_time` (flat): from/to must be an ISO 8601 date or date-time, or unix seconds.
             *
             *     `bad_range` (flat): from must not be after to, and the range may cover at most 366 days.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_time" | "bad_range";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    exportOrders: {
        parameters: {
            query?: {
                /** @description processing, completed, partial, canceled or failed */
                status?: "processing" | "completed" | "partial" | "canceled" | "failed";
                /** @description stars, premium or nft */
                type?: "stars" | "premium" | "nft";
                /** @description only orders created with exactly this client_reference */
                client_reference?: string;
                /** @description created at or after: ISO 8601 date or date-time (offset optional), or unix seconds */
                from?: string;
                /** @description created at or before: same formats as from */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The orders as CSV. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    /** @description attachment; filename="…csv" */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example order_id,created_at,type,status,partner_price,currency,price_usd_ref,quantity,recipient,label,completed_at,refunded,client_reference,gift,failure_stage,failure_reason
                     *     PA-100001,2026-03-01T12:00:00.000000,stars,completed,1.58,USD,,100,'@durov,100 звёзд Telegram для @durov,2026-03-01T12:00:03.000000+00:00,false,"cart 7, ""gift""",,,
                     */
                    "text/csv": string;
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_status` (flat): status must be one of processing, completed, partial, canceled, failed.
             *
             *     `bad_type` (nested): type must be one of stars, premium, nft.
             *
             *     `bad_time` (flat): from/to must be an ISO 8601 date or date-time, or unix seconds.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_status" | "bad_time";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    exportLedger: {
        parameters: {
            query?: {
                /** @description USD or TON (default: both) */
                currency?: "USD" | "TON";
                /** @description created at or after: ISO 8601 date or date-time (offset optional), or unix seconds */
                from?: string;
                /** @description created at or before: same formats as from */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries as CSV. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    /** @description attachment; filename="…csv" */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example entry_id,created_at,currency,kind,amount,balance_after,order_id,topup_id,note
                     *     3,2026-03-01T12:00:00.000000+00:00,USD,order_debit,-1.58,48.42,PA-100001,
                     *     1,2026-03-01T11:00:00.000000+00:00,USD,topup,50.00,50.00,,tp_0a1b2c
                     */
                    "text/csv": string;
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_time` (flat): from/to must be an ISO 8601 date or date-time, or unix seconds.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_time";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description only the deliveries of this order */
                order_id?: string;
                /** @description order.completed, order.failed, order.refunded, balance.low, webhook.test */
                event?: "order.completed" | "order.failed" | "order.refunded" | "balance.low" | "webhook.test";
                /** @description pending, delivered or failed (else 400 bad_status) */
                status?: "pending" | "delivered" | "failed";
                /** @description the next_cursor of the previous page */
                cursor?: string;
                /** @description page size, 1 to 200, default 50 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_status` (flat): status must be one of processing, completed, partial, canceled, failed.
             *
             *     `bad_limit` (flat): limit is out of range.
             *
             *     `bad_cursor` (flat): The cursor is invalid.
             *
             *     `bad_param` (flat): Unknown or invalid query parameter.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadParamError"] | {
                        /** @enum {string} */
                        code: "bad_status" | "bad_limit" | "bad_cursor";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the X-Webhook-Id (24 hex characters) */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery with the new attempt. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_json` (nested): The request body is not valid JSON.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_json";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `route_not_found` (nested): No such endpoint.
             *
             *     `not_found` (flat): Not found.
             */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "not_found";
                        detail: string;
                    } | {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `webhook_not_configured` (flat): No webhook address and secret are saved: save the Webhook block first. */
            409: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "webhook_not_configured";
                        detail: string;
                    };
                };
            };
            /** @description `payload_too_large` (nested): The request body is too large. */
            413: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type` (nested): Send the body as application/json. */
            415: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `storage_unavailable` (nested): Storage is temporarily unavailable: nothing was written. Retry later. */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (storage_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery with its one attempt. */
            200: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /**
             * @description `bad_request` (nested): The request is malformed.
             *
             *     `bad_json` (nested): The request body is not valid JSON.
             */
            400: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "bad_request" | "bad_json";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unauthorized` (nested): Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unauthorized";
                            detail: string;
                        };
                    };
                };
            };
            /**
             * @description `ip_not_allowed` (nested): The caller IP address is not in the key whitelist.
             *
             *     `partner_inactive` (nested): The partner account is not activated: make the first top-up.
             *
             *     `partner_program_unavailable` (nested): The partner program is temporarily unavailable.
             */
            403: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "ip_not_allowed" | "partner_inactive" | "partner_program_unavailable";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `route_not_found` (nested): No such endpoint. */
            404: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "route_not_found";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `webhook_not_configured` (flat): No webhook address and secret are saved: save the Webhook block first. */
            409: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        code: "webhook_not_configured";
                        detail: string;
                    };
                };
            };
            /** @description `payload_too_large` (nested): The request body is too large. */
            413: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `unsupported_media_type` (nested): Send the body as application/json. */
            415: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` (nested): Too many requests. */
            429: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (rate_limited). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error` (nested): Internal error. The request may be retried. */
            500: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: {
                            /** @enum {string} */
                            code: "internal_error";
                            detail: string;
                        };
                    };
                };
            };
            /** @description `storage_unavailable` (nested): Storage is temporarily unavailable: nothing was written. Retry later. */
            503: {
                headers: {
                    /** @description Seconds before a sensible retry, the same as `retry_after` in the body (storage_unavailable). */
                    "Retry-After"?: number;
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageUnavailableError"];
                };
            };
            /** @description Any other error, such as a code a later version adds: flat `{code, detail}` or nested `{detail: {code, detail}}`. Read `detail`; if it is an object take `code` from it, else from the root. */
            default: {
                headers: {
                    /** @description The key's general budget: requests that can be made at once (API_RATE_BURST, refilled at API_RATE_LIMIT per minute). */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the budget now (0 on a 429 of scope key). */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the budget is full again (0 when it is). */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlatError"] | components["schemas"]["NestedError"];
                };
            };
        };
    };
}
