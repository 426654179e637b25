package config

import "testing"

func TestTheTranscriptOnExitAndTheMouseAreOnUnlessASettingsFileTurnsThemOff(t *testing.T) {
	f := newFixture(t)
	cfg, err := f.load(t, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.TranscriptOnExit || !cfg.Mouse {
		t.Fatalf("without any setting: transcript on exit %v, mouse %v", cfg.TranscriptOnExit, cfg.Mouse)
	}
	f.write(t, f.user, `{"ui": {"transcript_on_exit": false, "mouse": false}}`)
	if cfg, err = f.load(t, Overrides{}); err != nil {
		t.Fatal(err)
	}
	if cfg.TranscriptOnExit || cfg.Mouse {
		t.Fatalf("turned off: transcript on exit %v, mouse %v", cfg.TranscriptOnExit, cfg.Mouse)
	}
}
