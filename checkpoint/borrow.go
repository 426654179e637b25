package checkpoint

// borrowFrom returns a reader of the git objects of the repository around workspace, or nil.
func borrowFrom(workspace string) func(ID) ([]byte, bool) {
	return nil
}
