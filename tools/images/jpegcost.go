package images

import (
	"encoding/binary"
	"image"
)

// decodedBytes is what decoding the picture data, of the header cfg, holds at once: its pixels and, for a
// progressive JPEG, the coefficients Go's decoder keeps for every block of every component until the last
// scan (64 int32s a block of 8×8 pixels, 4 bytes a pixel of a component at full resolution). A
// progressive greyscale JPEG of 16,000×16,000 pixels is 256 MB of pixels but 1.28 GB at its peak.
func decodedBytes(data []byte, cfg image.Config) int64 {
	pixels := int64(cfg.Width) * int64(cfg.Height)
	return pixels*bytesPerPixel(cfg.ColorModel) + pixels*4*progressiveShare(data)
}

// progressiveShare is, for a progressive JPEG, how many full-resolution components its components add up
// to (three for 4:4:4 colour, 1.5 for 4:2:0, one for greyscale), rounded up; 0 for any other picture. It
// reads the markers up to the first scan; a header it cannot follow counts as four full components, the
// most a JPEG has.
func progressiveShare(data []byte) int64 {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return 0
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return 0
		}
		marker := data[i+1]
		switch {
		case marker == 0xff: // fill byte
			i++
			continue
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd7: // no length
			i += 2
			continue
		case marker == 0xda || marker == 0xd9: // the first scan, or the end: no frame header said progressive
			return 0
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		seg := data[i+4 : min(len(data), i+2+n)]
		if marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce {
			return componentShare(seg)
		}
		if marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc {
			return 0 // a frame that is not progressive
		}
		i += 2 + n
	}
	return 0
}

// componentShare reads a progressive frame header (precision, height, width, the components and their
// sampling factors) and returns the full-resolution components its blocks add up to, rounded up.
func componentShare(seg []byte) int64 {
	if len(seg) < 6 {
		return 4
	}
	nc := int(seg[5])
	if nc < 1 || nc > 4 || len(seg) < 6+3*nc {
		return 4
	}
	hmax, vmax := 1, 1
	for c := range nc {
		f := seg[6+3*c+1]
		hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
	}
	units := 0 // in 1/(hmax*vmax) of a full component
	for c := range nc {
		f := seg[6+3*c+1]
		units += max(1, int(f>>4)) * max(1, int(f&15))
	}
	full := hmax * vmax
	return int64((units + full - 1) / full)
}
