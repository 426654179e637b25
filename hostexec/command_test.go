package hostexec

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestCommandGivesExactlyTheEnvironmentItIsGiven(t *testing.T) {
	t.Setenv("HOSTEXEC_PLANTED_SECRET", "planted-secret-value")
	env, err := NewFinder(os.Getenv("PATH"), nil).Find("env")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Command(context.Background(), env, nil).Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 0 {
		t.Errorf("a nil environment passed on %q", out)
	}
	out, err = Command(context.Background(), env, []string{"ONLY=this"}).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "ONLY=this" {
		t.Errorf("environment = %q", got)
	}
}

func TestCommandStartsTheProgramUnderItsName(t *testing.T) {
	sh, err := NewFinder(os.Getenv("PATH"), nil).Find("sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Command(context.Background(), sh, nil, "-c", `echo "$0"`).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "sh" {
		t.Errorf("$0 = %q, want sh", got)
	}
}
