package files

import (
	"fmt"
	"io"
	"os"

	"github.com/warden-cli/warden/tools"
	"github.com/warden-cli/warden/tools/images"
)

// read_file of a picture (PNG, JPEG, GIF, WebP, told by its first bytes, not its name) shows it to the
// model: the result carries it as an Image, bounded and scaled by package images, and the agent sends it
// as an image part after the turn's tool results. A picture that cannot be sent is refused with the
// reason and what to do instead.

// readHead reads the first bytes of f into head without moving its offset, and returns how many it read.
func readHead(f *os.File, head []byte) int {
	n, _ := f.ReadAt(head, 0)
	return n
}

// readPicture reads the picture f, of size bytes, for the model.
func readPicture(f io.Reader, size int64, fp filePath, p *readFileParams) tools.Result {
	pic, err := images.Prepare(f, size, fp.Shown)
	if err != nil {
		return tools.Errorf("%s is a picture that cannot be shown to you: %v", fp.Shown, err)
	}
	out := fmt.Sprintf("%s is a picture (%s); it is shown to you as an image after the results of this turn's calls.", fp.Shown, pic.Describe())
	if p.Offset > 0 || p.Limit > 0 {
		out += " (offset and limit do not apply to a picture.)"
	}
	return tools.Result{Output: out, Images: []tools.Image{pic.Image},
		Display: fmt.Sprintf("Attached %s for the model to see (%s)", fp.Shown, pic.Describe())}
}
