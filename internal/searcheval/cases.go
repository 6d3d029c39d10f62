package searcheval

import "github.com/planq-dev/planq/changelog"

// caseSpec is one question with the record that answers it, the older
// version that answer replaces (if any), and near misses: records of the
// same domain and tools that share its words but state another fact.
type caseSpec struct {
	question    string
	identifier  bool
	answer      spec
	old         *spec
	distractors []spec
}

// Shorter names for the tables below.
const (
	convention = changelog.TypeConvention
	pattern    = changelog.TypePattern
	failure    = changelog.TypeFailure
	reference  = changelog.TypeReference
	guide      = changelog.TypeGuide
)

func ptr(s spec) *spec { return &s }

// cases are the hand-written questions and records. Keys are stable: a
// record's ID derives from its key and the seed, so renaming a key changes
// its ID and nothing else. Add cases at the end.
var cases = []caseSpec{
	{
		question: "how do I apply schema changes on my machine?",
		answer: learning("db-migrate-local", "database", convention,
			"Apply migrations locally with `make db-migrate`, not `go run ./cmd/migrate up`: the Makefile target loads DATABASE_URL from .env.local and takes the `advisory_lock` (id 72431) before migrating, so two shells cannot interleave and leave schema_migrations dirty.").
			in("Makefile", "cmd/migrate/main.go"),
		distractors: []spec{
			learning("db-migrate-dirty", "database", failure,
				"`make db-migrate` stops with `Dirty database version 42. Fix and force version.` after a migration failed halfway").
				fix("fix the SQL, then `go run ./cmd/migrate force 41` and run `make db-migrate` again; never edit schema_migrations by hand"),
			learning("db-migration-naming", "database", convention,
				"Migration files in db/migrations/ are named `<unix time>_<verb>_<object>.up.sql` with a matching .down.sql; `make db-new-migration NAME=add_orders_index` creates both."),
			learning("db-migrate-job", "database", reference,
				"In staging and prod, migrations run as the `migrate` Kubernetes Job before each Helm upgrade (deploy/helm/api/templates/migrate-job.yaml); it connects straight to the primary, bypassing PgBouncer, because the advisory_lock needs a session."),
		},
	},
	{
		question: "the Go service randomly errors that a statement already exists, but only when it goes through the connection pooler",
		answer: learning("pgx-prepared-statements", "database", failure,
			"pgx fails with `ERROR: prepared statement \"stmtcache_19\" already exists (SQLSTATE 42P05)` behind PgBouncer").
			fix("PgBouncer runs in transaction mode, so a server connection carries statements another client prepared; add `default_query_exec_mode=simple_protocol` to DATABASE_URL (parsed by pgxpool.ParseConfig in internal/db/pool.go)").
			in("internal/db/pool.go"),
		distractors: []spec{
			learning("pgbouncer-pool-modes", "database", reference,
				"PgBouncer's pool_mode is `transaction` in prod and `session` in staging; session features (SET search_path, LISTEN/NOTIFY, advisory locks) only behave the same in staging, so test them against a transaction-mode pool before merging."),
			learning("pg-too-many-clients", "database", failure,
				"Postgres answers `FATAL: sorry, too many clients already` during a deploy").
				fix("the new pods connected to Postgres directly instead of through PgBouncer; DATABASE_URL in values-prod.yaml must point at pgbouncer.prod:6432"),
		},
	},
	{
		question: "CI keeps timing out on the integration job, what should I change?",
		answer: learning("ci-integration-p1", "ci", failure,
			"The integration job hits the 30-minute limit in .github/workflows/ci.yml when its packages run in parallel").
			fix("run the suite with `go test -p 1 ./integration/...`: every package truncates the same Postgres database, and parallel packages wait on each other's TRUNCATE locks until the runner kills the job").
			in(".github/workflows/ci.yml"),
		distractors: []spec{
			learning("ci-race-oom", "ci", failure,
				"The unit job dies with `signal: killed` under `go test --race ./...`").
				fix("the race detector multiplies memory use by 5 to 10; cap package parallelism with `-p 4` on the 7 GB GitHub runner"),
			learning("ci-integration-tag", "testing", convention,
				"Integration tests live in integration/ behind the `integration` build tag; the unit job never compiles them, only the integration job runs `go test -tags integration`."),
		},
	},
	{
		question: "how long can someone stay signed in before they have to log in again?",
		old: ptr(learning("session-ttl-v1", "auth", reference,
			"Refresh tokens live 30 days (`REFRESH_TTL` in internal/session/config.go) and access JWTs 15 minutes; each refresh extends the session by another 30 days.")),
		answer: learning("session-ttl", "auth", reference,
			"Refresh tokens now expire after 14 days without use and at the latest 90 days after login (`REFRESH_IDLE_TTL` and `REFRESH_MAX_TTL` in internal/session/config.go, replacing `REFRESH_TTL`); access JWTs stay at 15 minutes. Changed after the March security review.").
			in("internal/session/config.go").onAgent(),
		distractors: []spec{
			learning("password-reset-expiry", "auth", reference,
				"Password reset links expire after 1 hour and work once; the token is stored as a sha256 hash in password_resets (internal/auth/reset.go)."),
			learning("impersonation-sessions", "auth", convention,
				"Admin impersonation sessions end after 30 minutes and cannot be refreshed; their JWTs carry an `act` claim with the admin's user ID for the audit log."),
		},
	},
	{
		question: "Google sign-in redirects to an error page when I run the app locally",
		answer: learning("oauth-local-callback", "auth", failure,
			"Local Google OAuth login fails with `Error 400: redirect_uri_mismatch`").
			fix("open the app at http://localhost:8080 and use the callback http://localhost:8080/auth/callback exactly; 127.0.0.1 and the Vite dev server on :5173 are not registered in the Google console"),
		distractors: []spec{
			learning("github-oauth-staging", "auth", reference,
				"The staging GitHub OAuth app calls back to https://staging.example.dev/auth/github/callback; its client secret is in Vault at secret/staging/github-oauth."),
			learning("oidc-issuer-slash", "auth", failure,
				"OIDC login in prod fails with `oidc: id token issued by a different provider`").
				fix("OIDC_ISSUER must be https://accounts.google.com without a trailing slash"),
		},
	},
	{
		question: "a production release went bad, how do I go back to the previous version?",
		answer: learning("prod-rollback", "deploy", guide,
			"Roll prod back with `make deploy-rollback ENV=prod`: it runs `helm rollback api` to the previous revision and pins the old image.tag in deploy/helm/api/values-prod.yaml. Do not use `kubectl rollout undo`: Argo CD re-syncs the Deployment from git within 3 minutes and undoes it.").
			in("Makefile", "deploy/helm/api/values-prod.yaml"),
		distractors: []spec{
			learning("rollout-restart-secret", "deploy", reference,
				"`kubectl rollout restart deployment/api -n prod` reloads a rotated secret without a release; Argo CD ignores the restartedAt annotation, so it does not fight the restart."),
			learning("canary-steps", "deploy", reference,
				"Canary steps are defined in deploy/argo/rollout.yaml: 10% of traffic for 15 minutes, then 50%, then 100%; the analysis template compares the 5xx rate of the canary pods with the stable ones."),
		},
	},
	{
		question: "can I push a release out on a Friday evening?",
		old: ptr(decision("friday-deploys-v1", "deploy",
			"No production deploys on Fridays",
			"a Friday deploy broke checkout and nobody was around until Monday")),
		answer: decision("friday-deploys", "deploy",
			"No production deploys after 15:00 UTC on Fridays, and none during the December freeze (Dec 18 to Jan 3); hotfixes need a second approver in #release",
			"the all-day Friday ban pushed risky changes into Thursday evenings; an afternoon cut-off keeps the weekend quiet without losing a day",
			"keeping the all-day Friday ban", "no restriction"),
		distractors: []spec{
			learning("staging-autodeploy", "deploy", reference,
				"Staging deploys on every merge to main; the deploy bot posts to #deploys and locks staging while the e2e suite runs."),
			learning("release-tags", "deploy", convention,
				"Release tags are cut on Tuesdays and Thursdays with `make release VERSION=vX.Y.Z`; the release notes are generated from PR labels."),
		},
	},
	{
		question: "my new config value shows up as undefined in the browser",
		answer: learning("vite-env-prefix", "frontend", failure,
			"`import.meta.env.API_URL` is undefined in the web app").
			fix("Vite only exposes variables whose names start with VITE_: call it VITE_API_URL in web/.env and restart `pnpm dev`; process.env does not exist in the browser bundle").
			in("web/.env", "web/vite.config.ts"),
		distractors: []spec{
			learning("web-env-production", "frontend", convention,
				"web/.env.production is committed and must hold only public values; the SSR server reads its secrets from the Kubernetes secret web-ssr-env, never from VITE_ variables."),
			learning("vite-alias", "frontend", failure,
				"`pnpm build` fails with `Failed to resolve import \"@/api/client\"`").
				fix("the `@` alias must be in both web/vite.config.ts (resolve.alias) and web/tsconfig.json (paths)"),
		},
	},
	{
		question: "what library should React components use to fetch and cache data from the backend?",
		answer: decision("server-state-tanstack", "frontend",
			"Use TanStack Query (`useQuery` with query keys from web/src/api/keys.ts) for all server state; Zustand holds UI state only",
			"it handles caching, refetch on focus and invalidation after mutations, which we kept re-implementing in Redux thunks",
			"Redux Toolkit Query", "SWR"),
		distractors: []spec{
			learning("zustand-ui-store", "frontend", reference,
				"The Zustand store in web/src/store/ui.ts holds sidebar, modal and theme state; its persist middleware writes it to localStorage under `ui-v2`."),
			learning("query-invalidate", "frontend", pattern,
				"After a mutation, invalidate with `queryClient.invalidateQueries({ queryKey: keys.orders.all })` rather than setQueryData; list endpoints sort on the server and a local patch shows rows in the wrong order."),
		},
	},
	{
		question: "how should a new list endpoint return results page by page?",
		old: ptr(learning("api-pagination-v1", "api", convention,
			"List endpoints take `?page=` and `?per_page=` (default 50, max 500) and return `total_count`; the helpers are in internal/api/page.go.")),
		answer: learning("api-pagination", "api", convention,
			"List endpoints use cursor pagination: `?after=<opaque cursor>&limit=` (default 50, max 200), answering with `next_cursor` (null on the last page). Offset paging (`page`/`per_page`) is gone: it skipped rows under concurrent inserts and its COUNT(*) was slow. Helpers in internal/api/page.go.").
			in("internal/api/page.go"),
		distractors: []spec{
			learning("admin-export-stream", "api", reference,
				"The admin export endpoint /v1/admin/export streams NDJSON and ignores `limit`; it reads the table in primary-key batches of 5,000."),
			learning("search-result-window", "search", reference,
				"Search endpoints return at most 1,000 hits in total (OpenSearch max_result_window); asking for a deeper page answers 422 with a `problem+json` type `result-window-exceeded`."),
		},
	},
	{
		question: "what do I have to do before changing the name of a property that external API clients receive?",
		answer: learning("api-field-deprecation", "api", convention,
			"Never rename or remove a field in /v1 responses: add the new field, mark the old one `deprecated: true` in api/openapi.yaml and keep both until the `Sunset` date, at least 6 months later; `make openapi-lint` fails on a removed property.").
			in("api/openapi.yaml"),
		distractors: []spec{
			learning("grpc-internal-breaking", "api", convention,
				"Internal gRPC APIs under proto/internal/ may change freely within a release; `buf breaking --against .git#branch=main` runs only for proto/public/."),
			learning("api-json-naming", "api", convention,
				"JSON field names in /v1 responses are snake_case and enums are lower-case strings; oapi-codegen generates the Go structs and their json tags from api/openapi.yaml."),
		},
	},
	{
		question: "users still see their old profile details for a while after editing them",
		answer: learning("user-cache-invalidation", "caching", failure,
			"Profile edits don't show for up to 10 minutes").
			fix("UpdateProfile must delete the `user:v3:{id}` key with `cache.Delete` after the transaction commits (internal/users/service.go), not before: a read between the delete and the commit filled the cache with the old row again").
			in("internal/users/service.go"),
		distractors: []spec{
			learning("redis-eviction-deploys", "caching", reference,
				"Redis maxmemory-policy is allkeys-lru in prod; eviction spikes in the redis_evicted_keys_total panel during deploys come from warming the feature-flag cache."),
			learning("cdn-purge", "caching", guide,
				"The CDN caches /v1/public/* for 60 seconds; after changing public content, purge a path with `make cdn-purge PATH=/v1/public/pricing`."),
			learning("cache-key-version", "caching", convention,
				"Bump the key version (`user:v3` to `user:v4` in internal/cache/keys.go) whenever the cached User struct changes shape; old entries then expire by TTL instead of failing to decode."),
		},
	},
	{
		question:   "what should REDIS_URL be when running the tests?",
		identifier: true,
		answer: learning("redis-test-db", "caching", reference,
			"Tests use Redis database 15 (`REDIS_URL=redis://localhost:6379/15`) and FLUSHDB it in TestMain; never point tests at database 0, which the dev server uses."),
		distractors: []spec{
			learning("redis-compose", "caching", reference,
				"docker-compose.yml runs redis:7.2 on port 6379 with appendonly off; `make dev-up` waits for it with `redis-cli ping`."),
			learning("redis-prod-tls", "caching", reference,
				"In prod REDIS_URL points at the ElastiCache primary endpoint over TLS (rediss://); go-redis verifies it with the AWS CA bundle shipped in the image."),
		},
	},
	{
		question: "a Go test that compares output against expected files fails after I changed the output on purpose; how do I refresh the expected files?",
		answer: learning("golden-update", "testing", guide,
			"Regenerate golden files with `go test ./internal/render/... -update` and commit the changed testdata/*.golden in the same commit as the code change.").
			in("internal/render/testdata/"),
		distractors: []spec{
			learning("jest-snapshots", "testing", guide,
				"Jest snapshots in web/ are refreshed with `pnpm test -u`; review the .snap diff, CI fails on obsolete snapshots."),
			learning("golden-newline", "testing", convention,
				"Golden files in internal/render/testdata must end with a newline; the editorconfig check in CI rejects them otherwise."),
		},
	},
	{
		question: "do I need Docker running to run the database tests?",
		answer: learning("testcontainers-docker", "testing", reference,
			"Integration tests start Postgres 16 through testcontainers-go (internal/testdb), so they need a running Docker daemon; `go test -short` skips them. With Colima on macOS set `DOCKER_HOST=unix://$HOME/.colima/default/docker.sock` and `TESTCONTAINERS_RYUK_DISABLED=true`.").
			in("internal/testdb/testdb.go"),
		distractors: []spec{
			learning("testdb-schema-per-test", "testing", pattern,
				"internal/testdb starts one container per test binary (sync.Once) and gives every test its own schema through `testdb.New(t)`, dropped in t.Cleanup."),
			learning("testcontainers-ratelimit", "testing", failure,
				"`testcontainers: failed to create container` on CI runners").
				fix("pull postgres:16-alpine in a setup step of its own; Docker Hub rate-limits anonymous pulls"),
		},
	},
	{
		question: "where can I see a breakdown of where the time went in one slow request?",
		answer: learning("tracing-tempo", "observability", reference,
			"Traces go through the OTel collector (otel-collector.observability:4317) to Tempo; find one in Grafana, Explore, Tempo by the `trace_id` that every log line and the `X-Trace-Id` response header carry."),
		distractors: []spec{
			learning("prometheus-histograms", "observability", reference,
				"Prometheus scrapes /metrics on port 9090 of every pod; latency histograms are `http_server_duration_seconds` with a `route` label (the chi pattern, never the raw path)."),
			learning("trace-sampling", "observability", reference,
				"Trace sampling is 10% head-based in prod (OTEL_TRACES_SAMPLER_ARG=0.1); the collector's tail_sampling policy always keeps traces with errors."),
		},
	},
	{
		question: "who is woken up when the API starts failing a lot of requests?",
		old: ptr(learning("error-alert-v1", "observability", reference,
			"HighErrorRate fires when 5xx responses exceed 1% for 5 minutes and pages #oncall-general in PagerDuty.")),
		answer: learning("error-alert", "observability", reference,
			"HighErrorRate pages the api-primary PagerDuty rotation when 5xx responses exceed 2% of requests for 10 minutes; the rule is in deploy/prometheus/alerts/api.yaml and links the runbook docs/runbooks/high-error-rate.md.").
			in("deploy/prometheus/alerts/api.yaml"),
		distractors: []spec{
			learning("latency-alert", "observability", reference,
				"HighLatency (p99 over 1.5 s for 15 minutes) only posts to #api-alerts in Slack; it never pages."),
			learning("sentry-digest", "observability", reference,
				"Sentry groups frontend errors by release; the web-oncall rotation gets a daily email digest of new issues, not a page."),
		},
	},
	{
		question: "worker pods keep restarting with exit code 137 during big backfills",
		answer: learning("worker-gomemlimit", "kubernetes", failure,
			"Queue worker pods get OOMKilled during backfills").
			fix("set GOMEMLIMIT to about 90% of the container memory limit (deploy/helm/worker/values.yaml: GOMEMLIMIT=900MiB for 1Gi); without it the Go GC lets the heap outgrow the cgroup limit").
			in("deploy/helm/worker/values.yaml"),
		distractors: []spec{
			learning("api-liveness-timeout", "kubernetes", failure,
				"api pods fail their liveness probe during GC pauses").
				fix("timeoutSeconds was 1; raised to 3 in deploy/helm/api/templates/deployment.yaml"),
			learning("worker-keda", "kubernetes", reference,
				"Worker replicas scale on queue depth with KEDA (deploy/helm/worker/templates/scaledobject.yaml) between 2 and 20 pods; backfills should use the `bulk` queue so that they don't starve interactive jobs."),
		},
	},
	{
		question: "how do I get kubectl access to the production cluster?",
		answer: learning("kube-login-prod", "kubernetes", guide,
			"`make kube-login ENV=prod` runs `aws eks update-kubeconfig --name prod-eu1` with the eks-readonly role; write access needs the breakglass role (`make kube-login ENV=prod ROLE=breakglass`), which posts to #security-audit."),
		distractors: []spec{
			learning("staging-cluster", "kubernetes", reference,
				"The staging cluster is staging-eu1 in the same AWS account; every team has a namespace of its own and edit rights in it."),
			learning("k9s-profile", "kubernetes", failure,
				"k9s shows `the server has asked for the client to provide credentials`").
				fix("export AWS_PROFILE=example-prod in the shell that starts k9s; it does not read the profile from the kubeconfig"),
		},
	},
	{
		question: "if a customer moves to a bigger plan halfway through the month, what do they pay?",
		answer: decision("billing-proration", "billing",
			"Plan upgrades are prorated to the day and invoiced immediately (`proration_behavior=always_invoice`); downgrades take effect at the end of the billing period, without refunds",
			"immediate upgrades stop us giving the bigger plan away until renewal, and refunding downgrades created credit notes finance had to reconcile by hand",
			"charging the full new price at the next renewal", "prorating both directions"),
		distractors: []spec{
			learning("stripe-test-clocks", "billing", guide,
				"Simulate renewals and trials with Stripe test clocks (`stripe test_helpers test_clocks advance --frozen-time ...`); a clock holds at most 3 customers."),
			learning("invoice-cron", "billing", reference,
				"Invoices are finalised on the 1st of the month at 02:00 UTC by cmd/billing-cron; running it again is safe because it skips subscriptions whose invoice.finalized event is recorded."),
		},
	},
	{
		question: "is it safe to run the hourly usage reporting job again after it crashed?",
		answer: learning("usage-idempotency", "billing", pattern,
			"Usage records are sent to Stripe with the idempotency key `usage:{subscription_item}:{hour}` (internal/billing/usage.go), so running the hourly job again after a crash never bills twice.").
			in("internal/billing/usage.go"),
		distractors: []spec{
			learning("usage-grace-window", "billing", reference,
				"The hourly usage job aggregates usage_events with a 5-minute grace window for late events; anything later goes into the next hour's record."),
			learning("usage-job-schedule", "billing", reference,
				"The usage reporting job runs at minute 7 of every hour as a River periodic job; its duration is on the billing dashboard as usage_report_seconds."),
		},
	},
	{
		question: "how do I rebuild the product catalogue index without users noticing?",
		answer: learning("search-reindex", "search", guide,
			"Reindex with `go run ./cmd/searchctl reindex --alias products`: it creates products_v{N+1} with the current mapping, backfills it, then moves the alias in one atomic call. Never DELETE /products in OpenSearch: the alias would point at nothing.").
			in("cmd/searchctl/main.go"),
		distractors: []spec{
			learning("search-mapping-type", "search", failure,
				"Changing a field's type in internal/search/mapping.json fails with `illegal_argument_exception: mapper [price] cannot be changed from type [float] to [scaled_float]`").
				fix("existing fields only gain sub-fields; add the new type under a new field name such as `price_scaled` and read both"),
			learning("search-indexer-lag", "search", reference,
				"search-indexer consumes product.updated events and sends them in bulk every 30 s (bulk_size 500); indexing lag is the search_index_lag_seconds panel."),
		},
	},
	{
		question: "customers who misspell product names get zero results",
		answer: learning("search-fuzziness", "search", failure,
			"Product search returns nothing for misspelled queries like `sneekers`").
			fix("use `fuzziness: AUTO` with `prefix_length: 1` on the title match in internal/search/query.go; the autocomplete field must stay exact").
			in("internal/search/query.go"),
		distractors: []spec{
			learning("search-synonyms", "search", reference,
				"Synonyms (sneakers, trainers, running shoes) live in internal/search/synonyms.txt and load when the index is created; editing them needs a reindex."),
			learning("search-msm", "search", convention,
				"minimum_should_match is 75% for multi-word product queries; lower it and `red running shoes` returns every red product."),
		},
	},
	{
		question: "while developing, where do the emails the app sends end up, and how do I read them?",
		answer: learning("mailpit-local", "email", reference,
			"Locally, mail goes to Mailpit (docker compose service mailpit, SMTP on port 1025); read it at http://localhost:8025. SMTP_HOST=localhost and SMTP_PORT=1025 are in .env.example.").
			in("docker-compose.yml", ".env.example"),
		distractors: []spec{
			learning("postmark-streams", "email", reference,
				"Transactional mail in prod goes through Postmark's `outbound` message stream; bounce webhooks arrive at /webhooks/postmark (internal/webhooks/postmark.go)."),
			learning("mjml-templates", "email", convention,
				"Email templates are MJML in internal/email/templates/ and compiled into Go templates by `make email-templates`; never edit the generated .html files."),
		},
	},
	{
		question: "why do Microsoft mail users find our password reset messages in their junk folder?",
		answer: learning("outlook-dkim", "email", failure,
			"Outlook and Hotmail put our mail in junk").
			fix("DKIM was signed with Postmark's domain and DMARC was p=none; we now sign with our own domain (selector pm2024) and publish DMARC p=quarantine. Check with `dig TXT pm2024._domainkey.mail.example.com`"),
		distractors: []spec{
			learning("postmark-suppressions", "email", reference,
				"Postmark suppresses an address after a hard bounce (`422 Inactive recipient`); internal/email/suppressions.go mirrors the list into email_suppressions so that we stop retrying."),
			learning("marketing-domain", "email", convention,
				"Marketing mail is sent from news.example.com through SendGrid, never from the transactional domain, so that complaints about newsletters don't hurt password reset delivery."),
		},
	},
	{
		question: "the payment provider sometimes sends the same event twice; how do we avoid handling it twice?",
		answer: learning("webhook-dedupe", "payments", pattern,
			"Stripe webhook handlers dedupe on `event.id`: insert it into processed_webhook_events in the same transaction as the side effect (internal/payments/webhook.go). Stripe retries for up to 3 days and may deliver events out of order.").
			in("internal/payments/webhook.go"),
		distractors: []spec{
			learning("webhook-signature-raw-body", "payments", failure,
				"The Stripe webhook signature check fails with `No signatures found matching the expected signature for payload`").
				fix("pass the raw request body to `stripe.ConstructEvent` before any JSON decoding; a middleware that re-encoded the body broke it"),
			learning("refund-idempotency", "payments", pattern,
				"Refunds are created with the idempotency key `refund:{order_id}:{attempt}`; retrying the API call with the same key returns the first refund instead of refunding twice."),
		},
	},
	{
		question: "how do I get payment callbacks delivered to my laptop?",
		answer: learning("stripe-listen-local", "payments", guide,
			"Run `stripe listen --forward-to localhost:8080/webhooks/stripe` and copy the signing secret it prints into STRIPE_WEBHOOK_SECRET in .env.local; `stripe trigger payment_intent.succeeded` sends a test event."),
		distractors: []spec{
			learning("stripe-test-cards", "payments", reference,
				"Test cards: 4242 4242 4242 4242 always succeeds, 4000 0027 6000 3184 always asks for 3-D Secure; use any future expiry date and any CVC."),
			learning("webhook-endpoint-prod", "payments", reference,
				"The prod Stripe webhook endpoint is https://api.example.com/webhooks/stripe, subscribed to payment_intent.*, charge.refunded and charge.dispute.*; add new event types in the Stripe dashboard and in internal/payments/webhook.go together."),
		},
	},
	{
		question:   "what happens to a River job that keeps failing?",
		identifier: true,
		answer: learning("river-retries", "queues", reference,
			"River jobs retry up to 25 times with exponential backoff (MaxAttempts in internal/jobs/config.go) and then move to the `discarded` state; inspect them in riverui at /admin/jobs or with `SELECT * FROM river_job WHERE state = 'discarded'`.").
			in("internal/jobs/config.go"),
		distractors: []spec{
			learning("sqs-dlq", "queues", reference,
				"The email-events SQS queue moves a message to email-events-dlq after 5 receives; redrive it with `aws sqs start-message-move-task`."),
			learning("river-unique", "queues", pattern,
				"Jobs that must not run twice at once use `UniqueOpts{ByArgs: true, ByPeriod: time.Hour}`; River then skips the insert instead of failing."),
		},
	},
	{
		question: "will events for one customer account be handled in the order they happened?",
		answer: decision("kafka-account-key", "queues",
			"Key account-events messages by account_id, so that all events of one account land on one Kafka partition and are consumed in order; consumers process a partition sequentially",
			"per-account order is what billing and the audit log need, and a global order would cap throughput at one partition",
			"a single partition", "sorting by timestamp in the consumer"),
		distractors: []spec{
			learning("kafka-consumer-lag", "queues", reference,
				"Consumer lag of the billing group: `kafka-consumer-groups --describe --group billing`; above 10k messages the KafkaConsumerLag alert posts in #data."),
			learning("outbox-pattern", "queues", pattern,
				"Events are published through the outbox table (internal/events/outbox.go), written in the same transaction as the change, so an event is never sent for a write that rolled back."),
		},
	},
	{
		question: "what's the right way for the web app to upload big files?",
		answer: learning("presigned-uploads", "storage", pattern,
			"Uploads go straight from the browser to S3 with presigned PUT URLs (valid 15 minutes) from POST /v1/uploads; files over 100 MB use multipart uploads (CreateMultipartUpload, 16 MB parts). The API never proxies file bytes.").
			in("internal/uploads/handler.go"),
		distractors: []spec{
			learning("uploads-lifecycle", "storage", reference,
				"Objects under uploads/tmp/ expire after 1 day (bucket lifecycle rule in infra/terraform/s3.tf); the upload handler moves a file to uploads/final/ once the virus scan passes."),
			learning("api-body-limit", "api", reference,
				"The API accepts request bodies up to 10 MB and answers `413 Request Entity Too Large` above; ingress-nginx's proxy-body-size is set to match."),
		},
	},
	{
		question:   "what do I set AWS_ENDPOINT_URL_S3 to for local development?",
		identifier: true,
		answer: learning("minio-local", "storage", reference,
			"Local dev uses MinIO from docker-compose.yml on :9000 with the bucket dev-uploads; set AWS_ENDPOINT_URL_S3=http://localhost:9000 and `UsePathStyle: true` in internal/storage/s3.go, or the SDK asks for dev-uploads.localhost.").
			in("docker-compose.yml", "internal/storage/s3.go"),
		distractors: []spec{
			learning("s3-prod-endpoint", "storage", convention,
				"In prod the S3 client uses the default endpoint and IRSA credentials; AWS_ENDPOINT_URL_S3 must not be set there, or uploads go through the VPC endpoint of the wrong region."),
			learning("s3-clock-skew", "storage", failure,
				"S3 answers `RequestTimeTooSkewed` from a dev container").
				fix("the container's clock drifted while the laptop slept; restart Docker Desktop"),
		},
	},
	{
		question: "how do I add text to the web UI that has to be translated?",
		answer: learning("i18n-add-string", "i18n", guide,
			"Add the key to web/src/locales/en/common.json only and run `pnpm i18n:extract`; Crowdin syncs the other locales every night. Never edit de/ or fr/ JSON by hand: the sync overwrites it.").
			in("web/src/locales/en/common.json"),
		distractors: []spec{
			learning("icu-plurals", "i18n", convention,
				"Counts use ICU plural syntax, `{count, plural, one {# item} other {# items}}`; i18next's _one/_other suffix keys are not enabled."),
			learning("go-i18n-bundles", "i18n", reference,
				"Emails and server error messages are translated with go-i18n bundles in internal/i18n/active.*.toml; `goi18n extract` collects new messages."),
		},
	},
	{
		question: "which time zone should dates be displayed in to users?",
		answer: learning("display-timezone", "i18n", convention,
			"Store timestamps in UTC and render them in the user's profile time zone (users.timezone, an IANA name) with `formatInTimeZone` from date-fns-tz; never the browser's zone, or invoices show different dates on different devices.").
			in("web/src/utils/dates.ts"),
		distractors: []spec{
			learning("currency-minor-units", "i18n", convention,
				"Money is stored as integer minor units with an ISO 4217 code and formatted with Intl.NumberFormat(locale, {style: 'currency', currency})."),
			learning("kyiv-timezone", "i18n", failure,
				"`RangeError: Invalid time zone specified: Europe/Kyiv` on old Android WebViews").
				fix("map Europe/Kyiv to Europe/Kiev in web/src/utils/dates.ts until their ICU data catches up"),
		},
	},
	{
		question: "where do I store a new API key that the service needs at runtime?",
		answer: learning("vault-external-secrets", "security", guide,
			"Put secrets in Vault at secret/<env>/<service> and list them under externalSecrets in deploy/helm/<service>/values.yaml; the External Secrets Operator syncs them into a Kubernetes Secret every 5 minutes. Never commit them to .env files."),
		distractors: []spec{
			learning("gitleaks-allowlist", "security", convention,
				"gitleaks runs in pre-commit and in CI (.gitleaks.toml); add a false positive to the allowlist with a comment that says why."),
			learning("tool-tokens-1password", "security", reference,
				"Personal tokens for internal tools (Grafana, Argo CD, Sentry) live in the 1Password vault Engineering, not in Vault; rotate them when someone leaves."),
		},
	},
	{
		question:   "govulncheck flagged a vulnerable module; how quickly does it have to be fixed?",
		identifier: true,
		answer: learning("vuln-sla", "security", convention,
			"Critical and high findings from govulncheck or `pnpm audit` must be fixed within 7 days; when there is no fix yet, add an entry with an expiry date and the security lead's approval to SECURITY-EXCEPTIONS.md.").
			in("SECURITY-EXCEPTIONS.md"),
		distractors: []spec{
			learning("govulncheck-nightly", "security", reference,
				"govulncheck runs nightly in .github/workflows/security.yml and reports only vulnerabilities in functions we call; `govulncheck -show verbose ./...` lists the rest."),
			learning("trivy-images", "security", reference,
				"Trivy scans every image in the release workflow and fails on HIGH or CRITICAL OS package CVEs; the distroless base image keeps that list short."),
		},
	},
	{
		question: "the orders list fires hundreds of SQL queries per request; how should related rows be loaded?",
		answer: learning("n-plus-one", "performance", pattern,
			"Load associations in batches with each repository's `LoadByIDs(ctx, ids)` (internal/orders/repo.go) and the dataloaders in GraphQL resolvers; the `querycount` test helper fails a list endpoint test that runs more than 5 queries.").
			in("internal/orders/repo.go", "internal/testutil/querycount.go"),
		distractors: []spec{
			learning("slow-query-hunt", "performance", guide,
				"To find slow queries, sort pg_stat_statements in staging by total_exec_time, then `EXPLAIN (ANALYZE, BUFFERS)` a candidate on a replica, never on the primary."),
			learning("orders-latency-budget", "performance", reference,
				"The orders list endpoint's p99 budget is 300 ms; the k6 script loadtest/orders.js checks it before each release."),
		},
	},
	{
		question: "how can I see what is using CPU in the API running in staging?",
		answer: learning("pprof-staging", "performance", guide,
			"pprof listens on the admin port 6060, not the public port: `kubectl port-forward deploy/api 6060 -n staging`, then `go tool pprof http://localhost:6060/debug/pprof/profile?seconds=30`."),
		distractors: []spec{
			learning("pyroscope-prod", "performance", reference,
				"Continuous profiling with Pyroscope runs in prod only, 10 s CPU profiles every minute; staging has it off to save the agent's memory."),
			learning("benchstat", "performance", convention,
				"Benchmarks: `go test -bench=. -benchmem -count=10 > new.txt` on both branches, then `benchstat old.txt new.txt`; never compare single runs."),
		},
	},
	{
		question: "how do we submit a new iPhone build to the App Store?",
		answer: learning("ios-release", "mobile", guide,
			"From mobile/, `bundle exec fastlane ios release` builds, uploads to TestFlight and submits for review; it needs the App Store Connect API key from 1Password (vault Mobile), not an Apple ID password.").
			in("mobile/fastlane/Fastfile"),
		distractors: []spec{
			learning("android-beta", "mobile", guide,
				"`bundle exec fastlane android beta` uploads an AAB to the Play internal testing track; versionCode comes from the CI run number."),
			learning("itms-redundant-binary", "mobile", failure,
				"The App Store upload is rejected with `ITMS-90189: Redundant Binary Upload`").
				fix("bump CFBundleVersion; fastlane's increment_build_number reads the latest TestFlight build first"),
		},
	},
	{
		question: "tapping a link in our emails opens Chrome instead of the app on Android phones",
		answer: learning("android-app-links", "mobile", failure,
			"Android App Links open the browser instead of the app on Android 12 and later").
			fix("https://example.com/.well-known/assetlinks.json must list the SHA-256 fingerprint of the Play App Signing key, not the upload key"),
		distractors: []spec{
			learning("ios-universal-links", "mobile", reference,
				"iOS universal links need apple-app-site-association served as application/json without redirects; the paths it lists must match mobile/src/linking.ts."),
			learning("push-tap-routing", "mobile", pattern,
				"Push notification taps are routed through mobile/src/linking.ts like deep links; add new screens to its config or a tap opens the home screen."),
		},
	},
	{
		question:   "I edited a .proto file; what else do I have to run before committing?",
		identifier: true,
		answer: learning("make-generate", "build", convention,
			"After changing proto/, db/queries/ or an interface that has a mock, run `make generate` (buf generate, sqlc generate, mockery) and commit the output; CI's `make check-generated` fails when generated files differ.").
			in("Makefile", "buf.gen.yaml"),
		distractors: []spec{
			learning("buf-plugins-pinned", "build", reference,
				"buf.gen.yaml pins protoc-gen-go v1.33 and protoc-gen-go-grpc v1.3 as remote plugins; updating them is a Renovate PR of its own."),
			learning("buf-lint-comments", "build", convention,
				"`buf lint` requires a comment on every public RPC and field in proto/public/; a `// buf:lint:ignore` needs a reason next to it."),
		},
	},
	{
		question: "how do I switch off an unfinished feature in production?",
		old: ptr(learning("feature-flags-v1", "config", reference,
			"Feature flags are in LaunchDarkly; read one with `ld.BoolVariation(\"checkout-v2\", user, false)` through internal/flags.")),
		answer: learning("feature-flags", "config", reference,
			"Feature flags moved from LaunchDarkly to self-hosted Unleash (flags.example.internal); check one with `flags.Enabled(ctx, \"checkout-v2\")` from internal/flags, which answers false when Unleash is unreachable. Toggle it per environment in the Unleash UI.").
			in("internal/flags/flags.go"),
		distractors: []spec{
			learning("envconfig-check", "config", reference,
				"Config comes from environment variables parsed by envconfig in internal/config/config.go; `make env-check` fails when a key is missing from .env.example."),
			learning("flag-naming", "config", convention,
				"Flag names are kebab-case and tagged with the owning team; remove a flag from the code within two weeks of it reaching 100% and archive it in Unleash."),
		},
	},
	{
		question: "CI spends minutes downloading Go modules on every run; how do we speed that up?",
		old: ptr(learning("ci-go-cache-v1", "ci", convention,
			"Add an actions/cache step for ~/go/pkg/mod keyed on hashFiles('**/go.sum') to each job in .github/workflows/ci.yml; setup-go v3 does not cache.")),
		answer: learning("ci-go-cache", "ci", convention,
			"actions/setup-go@v5 caches the module and build caches keyed on go.sum by itself (`cache: true` is the default); remove any separate actions/cache step for ~/go/pkg/mod: the two caches collide and restores take twice as long.").
			in(".github/workflows/ci.yml").onAgent(),
		distractors: []spec{
			learning("golangci-cache", "ci", reference,
				"golangci-lint's cache is keyed on its config; after a change to .golangci.yml the first CI run takes 6 minutes, the next ones 40 s."),
			learning("buildx-gha-cache", "ci", failure,
				"Docker layer caching in the build job evicted the Go caches").
				fix("`cache-to: type=gha,mode=max` doubled the cache past GitHub's 10 GB limit; use mode=min"),
		},
	},
	{
		question: "how do I make an endpoint available only to workspace admins?",
		answer: learning("authz-require", "auth", pattern,
			"Guard routes with `authz.Require(authz.WorkspaceAdmin)` in internal/api/routes.go; role checks never go inside handlers, and Require also writes the audit log entry.").
			in("internal/api/routes.go", "internal/authz/policy.go"),
		distractors: []spec{
			learning("workspace-roles", "auth", reference,
				"Workspace roles are owner, admin, member and viewer; a workspace always keeps at least one owner, so the last owner cannot be demoted."),
			learning("token-scopes", "auth", convention,
				"API tokens carry scopes (orders:read, orders:write) checked by `authz.Scope`, independently of the user's role; tokens never get admin scopes."),
		},
	},
	{
		question: "adding an index to a large table blocked writes for minutes; how should it be done?",
		answer: learning("index-concurrently", "database", convention,
			"Create indexes on large tables with `CREATE INDEX CONCURRENTLY` in a migration of its own that starts with `-- migrate:no-transaction`; CONCURRENTLY cannot run inside a transaction block.").
			in("db/migrations/"),
		distractors: []spec{
			learning("invalid-index", "database", failure,
				"`CREATE INDEX CONCURRENTLY` left an INVALID index behind after a deadlock").
				fix("`DROP INDEX CONCURRENTLY` it and run the migration again; `\\d orders` in psql marks it INVALID"),
			learning("migration-timeouts", "database", reference,
				"statement_timeout is 30 s for the app role; migrations run as the migrate role with no statement_timeout but a lock_timeout of 5 s."),
		},
	},
	{
		question: "a test that depends on the current date fails when it runs around midnight",
		answer: learning("fake-clock", "testing", pattern,
			"Inject `clock.Clock` from internal/clock instead of calling time.Now; tests use `clock.NewFake(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))` and advance it explicitly.").
			in("internal/clock/clock.go"),
		distractors: []spec{
			learning("quarantine-flaky", "testing", convention,
				"Flaky tests are quarantined with `testutil.Quarantine(t, \"ENG-1234\")`, which skips them on CI; take them out of quarantine within a sprint."),
			learning("pg-time-precision", "testing", failure,
				"A round-trip test of a timestamp through Postgres fails with `Error: Not equal`").
				fix("Postgres keeps microseconds, Go nanoseconds; compare with `cmpopts.EquateApproxTime(time.Microsecond)`"),
		},
	},
	{
		question: "how do I change an environment variable of the api in production?",
		answer: learning("prod-env-vars", "deploy", guide,
			"Non-secret env vars for prod are in deploy/helm/api/values-prod.yaml under `env:`; merge a PR and Argo CD syncs it, and the checksum/config annotation restarts the pods.").
			in("deploy/helm/api/values-prod.yaml"),
		distractors: []spec{
			learning("preview-env-vars", "deploy", reference,
				"Preview environments take env vars from deploy/helm/api/values-preview.yaml plus an `env:` block in the PR description that overrides them per PR."),
			learning("argocd-webhook", "deploy", failure,
				"Argo CD takes minutes to apply a merge to values-prod.yaml").
				fix("it fell back to polling the deploy repo every 3 minutes because the GitHub webhook to Argo CD was failing; fix the webhook under Settings, Webhooks and syncs take seconds again"),
		},
	},
	{
		question: "has anyone started moving checkout to the new Stripe payments API, and where did they stop?",
		answer: handoff("checkout-v2-handoff", "payments", "",
			"Checkout v2: the PaymentIntents migration is half done on code branch feature/checkout-v2. Done: intents are created server-side in internal/payments/intents.go. Next: handle payment_intent.succeeded in the webhook and remove the Charges API path."),
		distractors: []spec{
			logEntry("refund-reasons-log", "payments", changelog.TypeImplement, changelog.StatusCompleted,
				"Implemented refund reasons in internal/payments/refunds.go; the Charges API refund path is untouched."),
			logEntry("3ds-saved-cards-log", "payments", changelog.TypeStart, changelog.StatusInProgress,
				"Starting ENG-812: 3-D Secure for saved cards at checkout; it needs PaymentIntents with `setup_future_usage`."),
		},
	},
	{
		question: "how many Postgres connections should each API pod open?",
		old: ptr(decision("pool-size-v1", "database",
			"pgxpool MaxConns = 50 per api pod",
			"it matches the per-process limit the old Rails app had")),
		answer: decision("pool-size", "database",
			"pgxpool MaxConns = 10 per api pod (internal/db/pool.go)",
			"at 50, a scale-out to 30 pods exhausted PgBouncer's pool and Postgres max_connections=500; 10 keeps 30 pods within the pool with room left for the workers",
			"keeping 50 and raising max_connections", "sizing the pool from GOMAXPROCS"),
		distractors: []spec{
			learning("worker-pool-replica", "database", reference,
				"Workers use a separate pool with MaxConns=4 and connect to the read replica (DATABASE_REPLICA_URL) for reports."),
			learning("idle-in-tx-timeout", "database", failure,
				"Handlers lose their database connection with `terminating connection due to idle-in-transaction timeout`").
				fix("idle_in_transaction_session_timeout is 60 s for the app role; the handler forgot tx.Rollback on an error path"),
		},
	},
}
