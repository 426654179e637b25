package app

import (
	"os"
	"path/filepath"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/safefile"
	"github.com/warden-cli/warden/skills"
)

// Wiring of the skills: the folders they come from, the session's catalog and its tool, and the project's
// skills, which follow the rule of the project's commands: they are the words of whoever can change the
// repository, followed by the model, so they are used only in a trusted workspace.

// skillDirs are the folders skills come from: the person's first, so that a repository cannot stand in
// for a skill the person relies on, then the project's, when project is set.
func skillDirs(cfg *config.Config, project bool) []skills.Dir {
	dirs := []skills.Dir{{Path: filepath.Join(config.ConfigDir(os.Getenv), "skills"), Source: "user"}}
	if home, _ := os.UserHomeDir(); home != "" {
		dirs = append(dirs, skills.Dir{Path: filepath.Join(home, ".claude", "skills"), Source: "user, .claude"})
	}
	if project {
		dirs = append(dirs, projectSkillDirs(cfg)...)
	}
	return dirs
}

// projectSkillDirs are the workspace's folders of skills.
func projectSkillDirs(cfg *config.Config) []skills.Dir {
	return []skills.Dir{
		{Path: filepath.Join(cfg.Workspace, ".warden", "skills"), Source: "project", Project: true},
		{Path: filepath.Join(cfg.Workspace, ".claude", "skills"), Source: "project, .claude", Project: true},
	}
}

// projectSkillsApproved says whether the project's skills may be used: the project's commands' rule.
func projectSkillsApproved(cfg *config.Config) bool { return cfg.ProjectCommands }

// waitingSkills names the project's skills that wait for the person's trust.
func waitingSkills(o *safefile.Opener, cfg *config.Config) []string {
	if projectSkillsApproved(cfg) {
		return nil
	}
	found, _ := skills.Load(o, projectSkillDirs(cfg))
	names := make([]string, 0, len(found))
	for _, s := range found {
		names = append(names, s.Name)
	}
	return names
}

// loadSkills fills the session's catalog with the person's skills and, in a trusted workspace, the
// project's, and offers the skill tool when there is a skill or one waits for trust. It returns what the
// person must be told.
func (s *session) loadSkills() (tool bool, warnings []string) {
	s.skills = skills.NewCatalog(s.opener)
	warnings = s.skills.Load(skillDirs(s.cfg, projectSkillsApproved(s.cfg)))
	return len(s.skills.List()) > 0 || len(waitingSkills(s.opener, s.cfg)) > 0, warnings
}

// trustSkills reads the project's skills too once the person trusts the workspace; the TUI tells the
// catalog's warnings it has not told.
func (s *session) trustSkills() {
	s.skills.Load(skillDirs(s.cfg, true))
}
