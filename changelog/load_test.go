package changelog

import (
	"crypto/sha1"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func blobID(data []byte) BlobID { return sha1.Sum(data) }

func TestLoaderUsesCacheAcrossProcesses(t *testing.T) {
	blobs := map[BlobID][]byte{}
	var files []File
	for _, r := range sampleRecords() {
		data, err := Render(r)
		if err != nil {
			t.Fatal(err)
		}
		id := blobID(data)
		blobs[id] = data
		files = append(files, File{Path: RecordPath(r), Blob: id})
	}
	files = append(files, File{Path: "log/README.md", Blob: blobID([]byte("readme"))}, File{Path: "scratch.md", Blob: blobID([]byte("s"))})
	reads := 0
	read := func(id BlobID) ([]byte, error) {
		reads++
		data, ok := blobs[id]
		if !ok {
			return nil, errors.New("unknown blob: the loader read a non-record file")
		}
		return data, nil
	}
	path := filepath.Join(t.TempDir(), "cache", "records.gob")

	first := OpenCache(path)
	recs, err := NewLoader(read, first).Load(files)
	if err != nil || len(recs) != len(sampleRecords()) {
		t.Fatalf("first load: %d records, err %v", len(recs), err)
	}
	if reads != len(sampleRecords()) {
		t.Fatalf("first load read %d blobs, want %d", reads, len(sampleRecords()))
	}
	if err := first.Save(); err != nil {
		t.Fatal(err)
	}

	reads = 0
	recs2, err := NewLoader(read, OpenCache(path)).Load(files)
	if err != nil {
		t.Fatal(err)
	}
	if reads != 0 {
		t.Errorf("second load read %d blobs; the cache should have answered", reads)
	}
	for i := range recs {
		if recs[i].ID != recs2[i].ID || recs2[i].Path != files[i].Path || recs[i].Body != recs2[i].Body {
			t.Errorf("cached record %d differs: %+v vs %+v", i, recs[i], recs2[i])
		}
	}

	// A cached blob met at the wrong path is parsed again, and refused.
	moved := []File{{Path: "log/1999-01/" + filepath.Base(files[0].Path), Blob: files[0].Blob}}
	_, err = NewLoader(read, OpenCache(path)).Load(moved)
	var le *LoadError
	if !errors.As(err, &le) || len(le.Problems) != 1 {
		t.Fatalf("want one problem for a record at the wrong path, got %v", err)
	}
}

func TestCacheIgnoresDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.gob")
	if err := writeFile(path, []byte("not a gob")); err != nil {
		t.Fatal(err)
	}
	c := OpenCache(path)
	if _, ok := c.get(BlobID{1}); ok {
		t.Fatal("damaged cache answered")
	}
}

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
