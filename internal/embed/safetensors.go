package embed

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// A safetensors file: an 8-byte little-endian length, a JSON header of
// that length mapping each tensor's name to its dtype, shape and
// data_offsets (begin and end, relative to the end of the header), then
// the tensors' bytes, little-endian and row-major. "__metadata__" holds
// strings, no tensor.

// maxSafetensorsHeader bounds the JSON header, as the format's own readers
// do.
const maxSafetensorsHeader = 100 << 20

// tensor is one tensor of a safetensors file; data is its bytes.
type tensor struct {
	dtype string
	shape []int
	data  []byte
}

// dtypeSize is the bytes per element of a dtype planq reads, 0 for others.
func dtypeSize(dtype string) int {
	switch dtype {
	case "F64", "I64":
		return 8
	case "F32", "I32":
		return 4
	case "F16", "BF16":
		return 2
	case "I8":
		return 1
	}
	return 0
}

var errSafetensorsTruncated = errors.New("truncated safetensors file")

// parseSafetensors returns the tensors of a whole safetensors file. Every
// tensor's bytes lie within the file and are as many as its shape and
// dtype say, or it is an error; a tensor of a dtype planq does not read is
// left out.
func parseSafetensors(file []byte) (map[string]tensor, error) {
	if len(file) < 8 {
		return nil, errSafetensorsTruncated
	}
	n := binary.LittleEndian.Uint64(file)
	if n > maxSafetensorsHeader {
		return nil, fmt.Errorf("safetensors header of %d bytes: not a safetensors file, or damaged", n)
	}
	if uint64(len(file)-8) < n {
		return nil, errSafetensorsTruncated
	}
	body := file[8+n:]
	var header map[string]json.RawMessage
	if err := json.Unmarshal(file[8:8+n], &header); err != nil {
		return nil, fmt.Errorf("safetensors header: %w", err)
	}
	tensors := make(map[string]tensor, len(header))
	for name, raw := range header {
		if name == "__metadata__" {
			continue
		}
		t, ok, err := readTensor(name, raw, body)
		if err != nil {
			return nil, err
		}
		if ok {
			tensors[name] = t
		}
	}
	return tensors, nil
}

// readTensor is false for a dtype planq does not read.
func readTensor(name string, raw json.RawMessage, body []byte) (tensor, bool, error) {
	var info struct {
		Dtype       string `json:"dtype"`
		Shape       []int  `json:"shape"`
		DataOffsets []int  `json:"data_offsets"`
	}
	if err := json.Unmarshal(raw, &info); err != nil {
		return tensor{}, false, fmt.Errorf("safetensors tensor %q: %w", name, err)
	}
	if len(info.DataOffsets) != 2 {
		return tensor{}, false, fmt.Errorf("safetensors tensor %q: data_offsets %v, want begin and end", name, info.DataOffsets)
	}
	begin, end := info.DataOffsets[0], info.DataOffsets[1]
	if begin < 0 || end < begin {
		return tensor{}, false, fmt.Errorf("safetensors tensor %q: data_offsets %v", name, info.DataOffsets)
	}
	if end > len(body) {
		return tensor{}, false, fmt.Errorf("%w: tensor %q ends at byte %d of %d", errSafetensorsTruncated, name, end, len(body))
	}
	size := dtypeSize(info.Dtype)
	if size == 0 {
		return tensor{}, false, nil
	}
	elems := 1
	for _, d := range info.Shape {
		if d < 0 || d > 0 && elems > len(body)/d {
			return tensor{}, false, fmt.Errorf("safetensors tensor %q: shape %v larger than the file", name, info.Shape)
		}
		elems *= d
	}
	if elems*size != end-begin {
		return tensor{}, false, fmt.Errorf("safetensors tensor %q: shape %v of %s is %d bytes, its data_offsets say %d", name, info.Shape, info.Dtype, elems*size, end-begin)
	}
	return tensor{dtype: info.Dtype, shape: info.Shape, data: body[begin:end:end]}, true, nil
}

// floats returns t's elements as float32s.
func (t tensor) floats() ([]float32, error) {
	d := t.data
	switch t.dtype {
	case "F32":
		out := make([]float32, len(d)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(d[4*i:]))
		}
		return out, nil
	case "F16":
		out := make([]float32, len(d)/2)
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(d[2*i:]))
		}
		return out, nil
	case "BF16":
		out := make([]float32, len(d)/2)
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(d[2*i:])) << 16)
		}
		return out, nil
	case "F64":
		out := make([]float32, len(d)/8)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(d[8*i:])))
		}
		return out, nil
	case "I8":
		out := make([]float32, len(d))
		for i, b := range d {
			out[i] = float32(int8(b))
		}
		return out, nil
	}
	return nil, fmt.Errorf("a tensor of %s, not of numbers planq reads as vectors (F32, F16, BF16, F64, I8)", t.dtype)
}

// ints returns t's elements as ints.
func (t tensor) ints() ([]int64, error) {
	d := t.data
	switch t.dtype {
	case "I64":
		out := make([]int64, len(d)/8)
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(d[8*i:]))
		}
		return out, nil
	case "I32":
		out := make([]int64, len(d)/4)
		for i := range out {
			out[i] = int64(int32(binary.LittleEndian.Uint32(d[4*i:])))
		}
		return out, nil
	}
	return nil, fmt.Errorf("a tensor of %s, not of integers (I32, I64)", t.dtype)
}

// halfToFloat converts an IEEE 754 half-precision number.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0: // zero and subnormals: frac * 2^-24
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	case 0x1f: // infinities and NaNs
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
