module example.com/tool

go 1.22

require github.com/spf13/cobra v1.8.0

require (
	example.com/tool/internal/things v0.1.0
	github.com/jackc/pgx/v5 v5.5.0 // a comment
	github.com/rogpeppe/go-internal v1.12.0
	go.uber.org/zap v1.27.0 // indirect
)
