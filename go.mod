module github.com/warden-cli/warden

go 1.26.8
