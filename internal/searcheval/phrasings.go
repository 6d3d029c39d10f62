package searcheval

// agentPhrasings are, for each question (by its key), the two phrasings a
// coding agent adds to its question when it searches, following the search
// tool's instruction to pass "two or three other phrasings ..., including
// identifiers you expect the record to hold": first a short keyword
// phrasing in the words developers use, then a phrasing naming the
// commands, files, identifiers or error messages the agent expects the
// answer to contain. They were written from the questions and the stack in
// vocab.go alone, without seeing the answers, the corpus or the cases, so
// some of the guessed identifiers are wrong, as an agent's would be.
var agentPhrasings = map[string][2]string{
	"db-migrate-local": {
		"run database migrations locally",
		"make migrate golang-migrate up db/migrations/ DATABASE_URL schema_migrations",
	},
	"pgx-prepared-statements": {
		"pgx prepared statement PgBouncer transaction pooling",
		"ERROR: prepared statement already exists (SQLSTATE 42P05) pgxpool QueryExecModeSimpleProtocol default_query_exec_mode",
	},
	"ci-integration-p1": {
		"integration test job timeout CI",
		"timeout-minutes integration job .github/workflows/ci.yml panic: test timed out after 10m0s go test -timeout",
	},
	"session-ttl": {
		"session expiry refresh token lifetime",
		"session TTL max age idle timeout internal/session/config.go SessionStore",
	},
	"oauth-local-callback": {
		"Google OAuth redirect URI localhost",
		"redirect_uri_mismatch http://localhost:8080/auth/callback internal/auth/oidc.go Google OAuth client",
	},
	"prod-rollback": {
		"rollback production deploy previous release",
		"helm rollback api -n prod argocd app rollback api-prod kubectl argo rollouts undo image.tag",
	},
	"friday-deploys": {
		"deploy freeze Friday release policy",
		"no deploys on Friday afternoon deploy freeze window deploybot production release",
	},
	"vite-env-prefix": {
		"Vite environment variable undefined in browser",
		"import.meta.env VITE_ prefix envPrefix web/vite.config.ts .env.local",
	},
	"server-state-tanstack": {
		"React data fetching server state caching",
		"TanStack Query useQuery queryKey queryClient web/src/api/client.ts not Zustand or useEffect fetch",
	},
	"api-pagination": {
		"list endpoint cursor pagination",
		"next_cursor limit cursor-based pagination internal/api/page.go api/openapi.yaml",
	},
	"api-field-deprecation": {
		"API field rename deprecation policy",
		"deprecated: true Sunset Deprecation header api/openapi.yaml breaking change API versioning",
	},
	"user-cache-invalidation": {
		"stale user profile cache after update",
		"internal/users/service.go cache.Set TTL invalidate delete cache key on write internal/cache/keys.go",
	},
	"redis-test-db": {
		"Redis database for tests",
		"REDIS_URL=redis://localhost:6379/1 separate test database FLUSHDB go test",
	},
	"golden-update": {
		"update golden files Go test",
		"go test ./internal/render -update flag testdata/*.golden internal/render/testdata/",
	},
	"testcontainers-docker": {
		"database tests require Docker",
		"testcontainers-go testdb.New(t) testing.Short() go test -short Cannot connect to the Docker daemon",
	},
	"tracing-tempo": {
		"distributed tracing slow request latency breakdown",
		"Tempo trace_id Grafana OpenTelemetry spans exemplars internal/obs/tracing.go",
	},
	"error-alert": {
		"API error rate alert on-call paging",
		"PagerDuty deploy/prometheus/alerts/api.yaml http_requests_total 5xx error rate alert routing",
	},
	"worker-gomemlimit": {
		"worker OOMKilled memory limit backfill",
		"OOMKilled exit code 137 resources.limits.memory GOMEMLIMIT deploy/helm/worker/values.yaml",
	},
	"kube-login-prod": {
		"kubectl access production EKS cluster",
		"aws eks update-kubeconfig --name prod aws sso login kubeconfig RBAC",
	},
	"billing-proration": {
		"plan upgrade mid-cycle proration",
		"proration_behavior create_prorations always_invoice billing_cycle_anchor internal/billing/subscriptions.go",
	},
	"usage-idempotency": {
		"rerun usage reporting job idempotent",
		"billing-cron usage_events internal/billing/usage.go idempotency_key double counting usage records",
	},
	"search-reindex": {
		"zero-downtime reindex alias swap",
		"searchctl reindex products_v7 index alias _aliases search-indexer",
	},
	"search-fuzziness": {
		"fuzzy search typo tolerance",
		"fuzziness AUTO multi_match internal/search/query.go minimum_should_match",
	},
	"mailpit-local": {
		"local email capture development SMTP",
		"Mailpit MailHog SMTP_HOST docker-compose.yml http://localhost:8025",
	},
	"outlook-dkim": {
		"Outlook emails land in junk deliverability",
		"DKIM SPF DMARC Outlook Hotmail junk Postmark sending domain dig TXT",
	},
	"webhook-dedupe": {
		"deduplicate duplicate Stripe webhook events",
		"event.id processed events unique constraint internal/payments/webhook.go stripe.ConstructEvent idempotent",
	},
	"stripe-listen-local": {
		"Stripe webhooks local development",
		"stripe listen --forward-to localhost:8080/webhooks/stripe STRIPE_WEBHOOK_SECRET whsec_",
	},
	"river-retries": {
		"River job retry policy max attempts",
		"MaxAttempts discarded river_job RetryPolicy internal/jobs/config.go riverui",
	},
	"kafka-account-key": {
		"Kafka event ordering per account",
		"partition key account_id account-events franz-go internal/events/producer.go consumer group",
	},
	"presigned-uploads": {
		"large file upload direct to S3",
		"presigned URL PUT multipart upload PresignClient internal/uploads/handler.go uploads/tmp/",
	},
	"minio-local": {
		"local S3 endpoint MinIO",
		"AWS_ENDPOINT_URL_S3=http://localhost:9000 MinIO docker-compose.yml UsePathStyle dev-uploads",
	},
	"i18n-add-string": {
		"add translation key web UI",
		"web/src/locales/en/common.json useTranslation t() i18next pnpm i18n:check crowdin upload sources",
	},
	"display-timezone": {
		"time zone for displaying dates",
		"date-fns-tz formatInTimeZone web/src/utils/dates.ts UTC user timezone Intl.DateTimeFormat",
	},
	"vault-external-secrets": {
		"store new secret API key runtime",
		"Vault vault kv put secret/prod/api External Secrets Operator ExternalSecret externalSecrets",
	},
	"vuln-sla": {
		"vulnerability remediation SLA deadline",
		"govulncheck HIGH CVE fix within days Dependabot .github/workflows/security.yml",
	},
	"n-plus-one": {
		"N+1 queries eager loading orders",
		"internal/orders/repo.go dataloader batch query WHERE id = ANY($1) sqlc JOIN",
	},
	"pprof-staging": {
		"CPU profile API staging",
		"go tool pprof kubectl port-forward /debug/pprof/profile?seconds=30 internal/obs/pprof.go Pyroscope",
	},
	"ios-release": {
		"iOS App Store release submission",
		"fastlane ios release mobile/fastlane/Fastfile TestFlight CFBundleVersion eas submit --platform ios",
	},
	"android-app-links": {
		"Android App Links open app not browser",
		"assetlinks.json .well-known autoVerify intent-filter mobile/app.config.ts mobile/src/linking.ts",
	},
	"make-generate": {
		"regenerate code after proto change",
		"make generate buf generate buf.gen.yaml go generate ./... git diff --exit-code",
	},
	"feature-flags": {
		"disable feature flag production",
		"Unleash kill switch internal/flags/flags.go go run ./cmd/flags toggle flag",
	},
	"ci-go-cache": {
		"CI Go module cache",
		"actions/setup-go cache: true cache-dependency-path go.sum GOMODCACHE actions/cache",
	},
	"authz-require": {
		"restrict endpoint to workspace admins",
		"internal/authz/policy.go RequireRole admin auth.Middleware internal/api/routes.go 403 Forbidden",
	},
	"index-concurrently": {
		"create index without locking table",
		"CREATE INDEX CONCURRENTLY golang-migrate migration without transaction db/migrations/ lock_timeout",
	},
	"fake-clock": {
		"flaky test time.Now midnight",
		"internal/clock/clock.go fake clock inject clock.Clock instead of time.Now",
	},
	"prod-env-vars": {
		"change production environment variable api",
		"deploy/helm/api/values-prod.yaml env configmap Argo CD sync api-prod",
	},
	"checkout-v2-handoff": {
		"checkout migration Stripe PaymentIntents handoff",
		"checkout v2 internal/payments/intents.go web/src/checkout/PaymentForm.tsx stripe-go v76 work in progress",
	},
	"pool-size": {
		"Postgres connection pool size per pod",
		"pgxpool MaxConns pgxpool.Config internal/db/pool.go PgBouncer max_connections",
	},
}
