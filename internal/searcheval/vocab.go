package searcheval

// vocab is what the records of one domain talk about. Filler fills its
// templates from it, so that filler shares the tools, files and
// identifiers of the hand-written answers, as a real team's memory does.
// Commands that are the point of an answer, and settings whose value an
// answer states, are left out, so that filler neither answers a question by
// accident nor contradicts its answer.
type vocab struct {
	name string
	// owner writes the domain's promoted records; stateAgent is the agent
	// with a branch in the corpus who writes its log entries, handoffs and
	// unpromoted records.
	owner, stateAgent string
	tools, idents     []string
	files, cmds       []string
	errs, topics      []string
}

// Agents with a branch of their own in the corpus.
const (
	agentBackend = "backend"
	agentInfra   = "infra"
)

func vocabOf(name string) (*vocab, bool) {
	for i := range vocabs {
		if vocabs[i].name == name {
			return &vocabs[i], true
		}
	}
	return nil, false
}

var vocabs = []vocab{
	{
		name: "auth", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"golang-jwt", "OIDC", "WebAuthn", "bcrypt", "Google OAuth", "SAML", "argon2id", "jwx"},
		idents: []string{"internal/session/", "SessionStore", "auth.Middleware", "csrf_token", "kid", "jwks_cache", "LoginAttempts", "MFAEnrollment", "OIDC_ISSUER", "SessionCookieName"},
		files:  []string{"internal/auth/login.go", "internal/session/store.go", "internal/auth/oidc.go", "internal/authz/policy.go", "internal/session/config.go", "web/src/auth/useSession.ts", "internal/auth/mfa.go"},
		cmds:   []string{"go test ./internal/auth/...", "make auth-keys", "go run ./cmd/admin reset-mfa --user 42", "curl -i localhost:8080/auth/me", "go test ./internal/session/..."},
		errs:   []string{"token is expired", "invalid_grant", "csrf token mismatch", "crypto/bcrypt: hashedPassword is not the hash of the given password", "401 Unauthorized", "webauthn: challenge mismatch"},
		topics: []string{"session refresh", "login rate limiting", "MFA enrollment", "SSO with SAML", "password hashing", "JWT signing keys", "CSRF protection", "API tokens", "logout"},
	},
	{
		name: "database", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"PgBouncer", "pgx", "sqlc", "Postgres 16", "golang-migrate", "pg_stat_statements", "RDS", "pgxpool"},
		idents: []string{"advisory_lock", "schema_migrations", "MinConns", "pgxpool.Config", "statement_timeout", "lock_timeout", "db.WithTx", "search_path", "DATABASE_URL"},
		files:  []string{"internal/db/pool.go", "db/migrations/", "db/queries/orders.sql", "internal/db/tx.go", "sqlc.yaml", "cmd/migrate/main.go", "db/seed.sql"},
		cmds:   []string{"make db-reset", "sqlc generate", "psql $DATABASE_URL", "make db-console", "make db-seed", "pg_dump --schema-only"},
		errs:   []string{"pq: deadlock detected", "ERROR: canceling statement due to statement timeout", "could not serialize access due to concurrent update", "ERROR: relation \"orders_archive\" does not exist", "conn busy", "duplicate key value violates unique constraint"},
		topics: []string{"migrations", "connection pooling", "transactions", "query timeouts", "read replicas", "vacuum", "index design", "sqlc queries", "seed data"},
	},
	{
		name: "ci", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"GitHub Actions", "actions/setup-go", "golangci-lint", "buildx", "Renovate", "act", "gotestsum", "Mergify"},
		idents: []string{"--race", "GOFLAGS", "-count=1", "concurrency: group", "needs: [lint]", "timeout-minutes", "paths-ignore", "runs-on: ubuntu-latest-8-cores"},
		files:  []string{".github/workflows/ci.yml", ".github/workflows/release.yml", ".golangci.yml", "renovate.json", "Makefile", "scripts/ci/test.sh"},
		cmds:   []string{"golangci-lint run ./...", "make ci", "act -j test", "gh run rerun --failed", "gotestsum --format testname", "make lint"},
		errs:   []string{"Error: Process completed with exit code 2", "no space left on device", "WARNING: DATA RACE", "level=error msg=\"Timeout exceeded: try increasing it by passing --timeout option\"", "Resource not accessible by integration", "fatal: reference is not a tree"},
		topics: []string{"the unit job", "lint config", "required checks", "the merge queue", "test sharding", "Renovate updates", "runner sizing", "workflow permissions"},
	},
	{
		name: "deploy", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"Argo CD", "Helm", "Argo Rollouts", "Terraform", "ECR", "kustomize", "deploybot"},
		idents: []string{"image.tag", "values-prod.yaml", "revisionHistoryLimit", "syncPolicy.automated", "maxSurge", "checksum/config", "ENV=staging", "canary steps"},
		files:  []string{"deploy/helm/api/values.yaml", "deploy/helm/api/values-prod.yaml", "deploy/argo/apps.yaml", "deploy/argo/rollout.yaml", "infra/terraform/prod/main.tf", "deploy/helm/api/Chart.yaml"},
		cmds:   []string{"make deploy ENV=staging", "helm diff upgrade api deploy/helm/api", "argocd app diff api-prod", "terraform plan -out plan.tfplan", "kubectl argo rollouts get rollout api", "helm history api -n prod"},
		errs:   []string{"ComparisonError: rpc error: code = Unknown", "UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress", "Error acquiring the state lock", "ImagePullBackOff", "OutOfSync", "manifest unknown"},
		topics: []string{"staging deploys", "release tagging", "canary analysis", "Terraform state", "Helm chart versions", "deploy notifications", "environment promotion", "preview environments"},
	},
	{
		name: "frontend", owner: "web", stateAgent: agentBackend,
		tools:  []string{"React 18", "Vite", "TanStack Query", "Zustand", "Playwright", "Storybook", "pnpm", "Tailwind"},
		idents: []string{"useQuery", "queryKey", "import.meta.env", "React.lazy", "ErrorBoundary", "useSession", "tailwind.config.ts", "queryClient"},
		files:  []string{"web/src/api/client.ts", "web/src/api/keys.ts", "web/src/store/ui.ts", "web/vite.config.ts", "web/src/routes.tsx", "web/playwright.config.ts", "web/tsconfig.json"},
		cmds:   []string{"pnpm dev", "pnpm build", "pnpm test", "pnpm lint --fix", "pnpm storybook", "pnpm exec playwright test"},
		errs:   []string{"Hydration failed because the initial UI does not match", "Cannot read properties of undefined (reading 'map')", "Maximum update depth exceeded", "ERR_PNPM_OUTDATED_LOCKFILE", "Each child in a list should have a unique \"key\" prop", "ChunkLoadError: Loading chunk 412 failed"},
		topics: []string{"route code splitting", "form validation", "design tokens", "bundle size", "error boundaries", "dark mode", "accessibility checks", "table virtualisation"},
	},
	{
		name: "api", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"chi", "OpenAPI 3.1", "oapi-codegen", "Spectral", "gRPC", "buf", "Envoy"},
		idents: []string{"next_cursor", "Idempotency-Key", "problem+json", "X-Request-Id", "api.Error", "Sunset", "RateLimit-Remaining"},
		files:  []string{"api/openapi.yaml", "internal/api/routes.go", "internal/api/page.go", "internal/api/errors.go", "proto/public/v1/orders.proto", "internal/api/middleware.go"},
		cmds:   []string{"make openapi-gen", "curl -s localhost:8080/v1/orders | jq", "go test ./internal/api/...", "spectral lint api/openapi.yaml", "grpcurl -plaintext localhost:9000 list"},
		errs:   []string{"422 Unprocessable Entity", "429 Too Many Requests", "oas3-valid-schema-example", "context deadline exceeded", "413 Request Entity Too Large", "415 Unsupported Media Type"},
		topics: []string{"error responses", "rate limits", "request validation", "API versioning", "idempotency", "OpenAPI generation", "webhook payloads", "CORS"},
	},
	{
		name: "caching", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"Redis 7", "ristretto", "CloudFront", "singleflight", "go-redis", "ElastiCache"},
		idents: []string{"cache.Get", "maxmemory-policy", "TTL", "singleflight.Group", "PoolSize", "Cache-Control", "stale-while-revalidate", "cache.Set"},
		files:  []string{"internal/cache/redis.go", "internal/cache/keys.go", "internal/users/service.go", "deploy/helm/redis/values.yaml", "internal/flags/cache.go", "infra/terraform/cdn.tf"},
		cmds:   []string{"redis-cli --bigkeys", "redis-cli MONITOR", "go test ./internal/cache/...", "redis-cli INFO memory", "redis-cli --latency"},
		errs:   []string{"OOM command not allowed when used memory > 'maxmemory'", "redis: connection pool timeout", "i/o timeout", "READONLY You can't write against a read only replica", "redis: nil", "CROSSSLOT Keys in request don't hash to the same slot"},
		topics: []string{"key versioning", "CDN caching", "cache stampedes", "TTL choices", "the feature-flag cache", "the session cache", "Redis memory", "cache warming"},
	},
	{
		name: "testing", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"testcontainers-go", "testify", "gotestsum", "Jest", "Playwright", "go-cmp", "mockery", "rapid"},
		idents: []string{"t.Parallel()", "testdb.New(t)", "testing.Short()", "t.Cleanup", "TestMain", "require.Eventually", "t.Setenv", "cmpopts.IgnoreFields"},
		files:  []string{"internal/testdb/testdb.go", "internal/render/testdata/", "internal/clock/clock.go", "web/jest.config.ts", "integration/suite_test.go", "internal/testutil/http.go"},
		cmds:   []string{"go test -short ./...", "go test -run TestCheckout -count=20 ./internal/orders", "gotestsum --rerun-fails", "go test -cover ./...", "go test -fuzz FuzzParse ./internal/render"},
		errs:   []string{"panic: test timed out after 10m0s", "Error: Not equal", "--- FAIL: TestCheckout/expired_card", "race detected during execution of test", "mock: I don't know what to return because the method call was unexpected", "expected 3 calls, got 2"},
		topics: []string{"test fixtures", "parallel tests", "mocks", "fuzzing", "test data builders", "HTTP handler tests", "table-driven tests", "coverage"},
	},
	{
		name: "observability", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"OpenTelemetry", "Prometheus", "Grafana", "Tempo", "Loki", "PagerDuty", "slog", "Sentry"},
		idents: []string{"trace_id", "LOG_LEVEL", "slog.Handler", "exemplars", "service.name", "http_requests_total", "span.RecordError", "request_id"},
		files:  []string{"internal/obs/tracing.go", "internal/obs/log.go", "deploy/prometheus/alerts/api.yaml", "deploy/grafana/dashboards/api.json", "deploy/otel/collector.yaml", "internal/obs/metrics.go"},
		cmds:   []string{"logcli query '{app=\"api\"} |= \"error\"'", "promtool check rules deploy/prometheus/alerts/worker.yaml", "kubectl logs -n prod deploy/api --since=10m", "make dashboards", "curl localhost:9090/metrics"},
		errs:   []string{"context deadline exceeded while exporting spans", "too many outstanding requests", "err-mimir-max-series-per-user", "traces export: rpc error: code = Unavailable", "label cardinality limit exceeded", "dropped 120 spans"},
		topics: []string{"log levels", "trace sampling", "dashboards", "metric cardinality", "error tracking", "SLOs", "runbooks", "structured logging"},
	},
	{
		name: "kubernetes", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"EKS", "kubectl", "Karpenter", "cert-manager", "ingress-nginx", "External Secrets Operator", "KEDA", "k9s"},
		idents: []string{"resources.limits.memory", "readinessProbe", "PodDisruptionBudget", "topologySpreadConstraints", "terminationGracePeriodSeconds", "preStop", "HorizontalPodAutoscaler", "priorityClassName"},
		files:  []string{"deploy/helm/api/templates/deployment.yaml", "deploy/helm/api/templates/hpa.yaml", "infra/terraform/eks/nodes.tf", "deploy/k8s/namespaces.yaml", "deploy/helm/api/templates/pdb.yaml", "deploy/helm/worker/templates/deployment.yaml"},
		cmds:   []string{"kubectl get pods -n prod", "kubectl describe pod", "kubectl top pods -n prod", "kubectl rollout status deploy/api -n prod", "k9s -n prod", "kubectl get events -n prod --sort-by=.lastTimestamp"},
		errs:   []string{"CrashLoopBackOff", "0/12 nodes are available: insufficient memory", "Readiness probe failed: context deadline exceeded", "FailedScheduling", "Evicted: The node was low on resource: ephemeral-storage", "x509: certificate has expired or is not yet valid"},
		topics: []string{"resource requests", "autoscaling", "pod disruption budgets", "node pools", "graceful shutdown", "probes", "namespaces", "ingress", "certificates"},
	},
	{
		name: "billing", owner: "payments", stateAgent: agentBackend,
		tools:  []string{"Stripe Billing", "Stripe test clocks", "billing-cron", "Metabase", "Stripe Tax"},
		idents: []string{"subscription_item", "proration_behavior", "invoice.finalized", "usage_events", "plan_id", "billing_cycle_anchor", "trial_end", "PriceID"},
		files:  []string{"internal/billing/subscriptions.go", "internal/billing/usage.go", "internal/billing/invoices.go", "internal/billing/plans.yaml", "cmd/billing-cron/main.go", "internal/billing/tax.go"},
		cmds:   []string{"go run ./cmd/billing-cron --dry-run", "make billing-fixtures", "stripe prices list --lookup-keys pro_monthly", "go test ./internal/billing/...", "stripe invoices upcoming --customer cus_test"},
		errs:   []string{"No such price: 'price_pro_monthly_v2'", "This customer has no attached payment source", "invoice is already finalized", "resource_missing", "tax_id_invalid", "subscription is canceled"},
		topics: []string{"usage metering", "invoices", "plan changes", "trials", "tax", "dunning", "seat counts", "coupons"},
	},
	{
		name: "search", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"OpenSearch 2.11", "searchctl", "search-indexer", "analysis-icu", "opensearch-go"},
		idents: []string{"products_v7", "search_as_you_type", "refresh_interval", "bulk_size", "minimum_should_match", "number_of_replicas", "track_total_hits", "boost"},
		files:  []string{"internal/search/query.go", "internal/search/mapping.json", "cmd/searchctl/main.go", "internal/search/indexer.go", "deploy/helm/opensearch/values.yaml", "internal/search/synonyms.txt"},
		cmds:   []string{"go run ./cmd/searchctl stats", "curl -s localhost:9200/_cat/indices?v", "curl localhost:9200/products/_search?q=shoe", "make search-up", "go test ./internal/search/..."},
		errs:   []string{"circuit_breaking_exception", "es_rejected_execution_exception", "index_not_found_exception", "search_phase_execution_exception", "too_many_clauses", "cluster_block_exception"},
		topics: []string{"relevance", "index mappings", "synonyms", "autocomplete", "indexing lag", "search analytics", "facets", "shard sizing"},
	},
	{
		name: "email", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"Postmark", "Amazon SES", "MJML", "go-mail", "SendGrid"},
		idents: []string{"SMTP_HOST", "List-Unsubscribe", "email_suppressions", "TemplateAlias", "From: no-reply@example.com", "MessageStream", "Reply-To"},
		files:  []string{"internal/email/sender.go", "internal/email/templates/", "internal/email/suppressions.go", "docker-compose.yml", "internal/email/digest.go", "internal/webhooks/postmark.go"},
		cmds:   []string{"make email-templates", "go run ./cmd/mailpreview --template welcome", "go test ./internal/email/...", "dig TXT mail.example.com"},
		errs:   []string{"550 5.7.1 Message rejected", "422 Inactive recipient", "421 4.7.0 Try again later", "Sender signature not defined", "template variable \"first_name\" is missing"},
		topics: []string{"transactional email", "digest emails", "unsubscribe links", "bounce handling", "email templates", "deliverability", "sending domains"},
	},
	{
		name: "payments", owner: "payments", stateAgent: agentBackend,
		tools:  []string{"Stripe", "PaymentIntents", "Stripe CLI", "Adyen", "3-D Secure", "stripe-go v76"},
		idents: []string{"event.id", "STRIPE_WEBHOOK_SECRET", "payment_intent.succeeded", "idempotency_key", "stripe.ConstructEvent", "capture_method", "charge.refunded", "payment_method_types"},
		files:  []string{"internal/payments/webhook.go", "internal/payments/intents.go", "internal/payments/refunds.go", "internal/payments/client.go", "web/src/checkout/PaymentForm.tsx", "internal/payments/disputes.go"},
		cmds:   []string{"go test ./internal/payments/...", "stripe logs tail", "make payments-fixtures", "stripe events resend evt_test", "stripe payment_intents list --limit 5"},
		errs:   []string{"card_declined", "authentication_required", "idempotency_key_in_use", "payment_intent_unexpected_state", "amount_too_small", "rate_limit"},
		topics: []string{"refunds", "payment method display", "3-D Secure", "disputes", "payment retries", "currency handling", "payouts", "saved cards"},
	},
	{
		name: "queues", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"River", "Kafka", "SQS", "franz-go", "riverui", "outbox-relay"},
		idents: []string{"river_job", "account-events", "visibility timeout", "UniqueOpts", "consumer group", "JobArgs", "InsertTx"},
		files:  []string{"internal/jobs/config.go", "internal/jobs/workers.go", "internal/events/producer.go", "internal/events/consumer.go", "deploy/helm/worker/values.yaml", "infra/terraform/sqs.tf"},
		cmds:   []string{"go run ./cmd/worker --queues default,email", "kafka-consumer-groups --describe --group search", "aws sqs get-queue-attributes", "make worker-dev", "kafka-topics --describe --topic orders"},
		errs:   []string{"job exceeded its timeout", "kafka: client has run out of available brokers", "REBALANCE_IN_PROGRESS", "ReceiptHandle is invalid", "context canceled", "MESSAGE_TOO_LARGE"},
		topics: []string{"job retries", "consumer lag", "job uniqueness", "scheduled jobs", "worker concurrency", "event schemas", "the outbox"},
	},
	{
		name: "storage", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"S3", "MinIO", "CloudFront", "aws-sdk-go-v2", "imgproxy", "ClamAV"},
		idents: []string{"presigned URL", "uploads/tmp/", "UsePathStyle", "Content-Disposition", "dev-uploads", "SSE-KMS", "ObjectKey", "x-amz-meta-owner"},
		files:  []string{"internal/storage/s3.go", "internal/uploads/handler.go", "infra/terraform/s3.tf", "docker-compose.yml", "internal/storage/images.go", "internal/uploads/scan.go"},
		cmds:   []string{"aws s3 ls s3://example-prod-uploads/", "mc ls local/dev-uploads", "make storage-up", "aws s3api get-bucket-lifecycle-configuration --bucket example-prod-uploads", "go test ./internal/storage/..."},
		errs:   []string{"SignatureDoesNotMatch", "AccessDenied", "NoSuchBucket", "EntityTooLarge", "SlowDown", "InvalidPart"},
		topics: []string{"image thumbnails", "bucket lifecycle", "virus scanning", "signed download URLs", "backups", "encryption at rest", "storage costs"},
	},
	{
		name: "i18n", owner: "web", stateAgent: agentBackend,
		tools:  []string{"i18next", "Crowdin", "go-i18n", "ICU MessageFormat", "date-fns-tz", "FormatJS"},
		idents: []string{"common.json", "Accept-Language", "active.de.toml", "fallbackLng", "useTranslation", "t('checkout.title')", "Intl.NumberFormat"},
		files:  []string{"web/src/locales/en/common.json", "web/src/i18n.ts", "internal/i18n/bundle.go", "internal/i18n/active.de.toml", "crowdin.yml", "web/src/utils/dates.ts"},
		cmds:   []string{"pnpm i18n:check", "goi18n extract", "crowdin upload sources", "goi18n merge active.*.toml", "crowdin status"},
		errs:   []string{"i18next::translator: missingKey de common checkout.title", "message \"welcome\" not found in language \"fr\"", "Invalid plural category", "Crowdin: File not found", "unsupported locale pt-BR"},
		topics: []string{"translations", "currency formatting", "right-to-left layout", "locale fallback", "translated emails", "locale detection"},
	},
	{
		name: "security", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"Vault", "gitleaks", "govulncheck", "Trivy", "Dependabot", "OPA", "1Password"},
		idents: []string{"externalSecrets", ".gitleaks.toml", "Content-Security-Policy", "securityContext.runAsNonRoot", "SBOM", "VAULT_ADDR", "allowlist", "NetworkPolicy"},
		files:  []string{".gitleaks.toml", ".github/workflows/security.yml", "deploy/helm/api/templates/networkpolicy.yaml", "internal/api/headers.go", "infra/terraform/iam.tf", "policy/opa/deploy.rego"},
		cmds:   []string{"trivy image api:latest", "gitleaks detect --source .", "vault kv get secret/staging/api", "make sbom", "opa test policy/opa"},
		errs:   []string{"leaks found: 1", "permission denied: vault token expired", "Refused to load the script because it violates the following Content Security Policy directive", "HIGH: CVE-2024-24790", "deny: containers must not run as root"},
		topics: []string{"secret rotation", "CSP headers", "network policies", "audit logging", "penetration test findings", "least-privilege IAM", "SSO for internal tools"},
	},
	{
		name: "performance", owner: "backend", stateAgent: agentBackend,
		tools:  []string{"pprof", "benchstat", "k6", "Pyroscope", "pg_stat_statements", "graph-gophers/dataloader"},
		idents: []string{"GOGC", "sync.Pool", "-benchmem", "p99", "EXPLAIN (ANALYZE, BUFFERS)", "json.Encoder", "GOMAXPROCS", "b.ReportAllocs()"},
		files:  []string{"internal/orders/repo.go", "loadtest/checkout.js", "internal/obs/pprof.go", "internal/graph/loaders.go", "bench/README.md", "internal/render/encode.go"},
		cmds:   []string{"k6 run loadtest/checkout.js", "go tool pprof -http=:8081 cpu.out", "go test -run '^$' -bench BenchmarkEncode ./internal/render", "go build -gcflags=-m ./internal/render"},
		errs:   []string{"p99 latency above 800ms", "allocations up 3x", "Seq Scan on orders", "GC pause 40ms", "http: Accept error: accept tcp: too many open files"},
		topics: []string{"allocation hot spots", "load testing", "latency budgets", "JSON encoding cost", "slow queries", "cold starts", "connection reuse"},
	},
	{
		name: "mobile", owner: "mobile", stateAgent: agentBackend,
		tools:  []string{"React Native 0.74", "Expo", "fastlane", "TestFlight", "Play Console", "Detox", "Hermes"},
		idents: []string{"versionCode", "CFBundleVersion", "EXPO_PUBLIC_API_URL", "react-native-mmkv", "expo-notifications", "Linking.getInitialURL", "useColorScheme"},
		files:  []string{"mobile/fastlane/Fastfile", "mobile/app.config.ts", "mobile/android/app/build.gradle", "mobile/ios/Podfile", "mobile/src/linking.ts", "mobile/eas.json"},
		cmds:   []string{"npx expo start", "cd ios && pod install", "npx detox test -c ios.sim.release", "eas build --platform android", "npx react-native doctor"},
		errs:   []string{"Unable to resolve module", "CocoaPods could not find compatible versions", "INSTALL_FAILED_UPDATE_INCOMPATIBLE", "Invariant Violation: requireNativeComponent", "Execution failed for task ':app:mergeReleaseResources'"},
		topics: []string{"push notifications", "offline storage", "OTA updates", "crash reporting", "build numbers", "app startup time", "dark mode"},
	},
	{
		name: "build", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"buf", "sqlc", "mockery", "goreleaser", "Docker buildx", "Go 1.22", "ko"},
		idents: []string{"go:generate", "ldflags -X main.version", "CGO_ENABLED=0", "distroless", "GOPRIVATE", "go.work", "GOTOOLCHAIN", "tools.go"},
		files:  []string{"buf.gen.yaml", "Makefile", "Dockerfile", ".goreleaser.yaml", "tools.go", "go.mod"},
		cmds:   []string{"docker buildx build --platform linux/amd64,linux/arm64 .", "go mod tidy", "goreleaser release --snapshot --clean", "make build", "go version -m ./bin/api"},
		errs:   []string{"missing go.sum entry for module providing package", "exec format error", "go: updates to go.mod needed", "COPY failed: file not found in build context", "go: downloading go1.22.5: toolchain not available"},
		topics: []string{"Docker images", "multi-arch builds", "version stamping", "Go toolchain upgrades", "private modules", "build times", "reproducible builds"},
	},
	{
		name: "config", owner: "infra", stateAgent: agentInfra,
		tools:  []string{"Unleash", "envconfig", "koanf", "Kubernetes ConfigMaps", "flagd"},
		idents: []string{"APP_ENV", ".env.local", "config.Load", "FLAGS_URL", "envconfig:\"PORT\"", "strict mode", "flags.Variant", "PORT"},
		files:  []string{"internal/config/config.go", "internal/flags/flags.go", ".env.example", "deploy/helm/api/values-prod.yaml", "internal/config/validate.go", "deploy/helm/api/templates/configmap.yaml"},
		cmds:   []string{"make env-check", "go run ./cmd/flags list", "cp .env.example .env.local", "go run ./cmd/api --print-config"},
		errs:   []string{"required key DATABASE_URL missing value", "unknown config key", "flag not found: search-v3", "strconv.ParseBool: parsing \"yes\": invalid syntax", "envconfig.Process: assigning PORT to Port: converting 'abc'"},
		topics: []string{"environment variables", "config validation", "per-environment overrides", "flag cleanup", "config reloading", "default values"},
	},
}
