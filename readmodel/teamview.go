package readmodel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel/internal/engine"
	"github.com/planq-dev/planq/staterepo"
)

// teamView is what global keeps of the promoted kinds, as the agent views
// read it: the current records ranked for reading (see Rank), cut to what a
// view can show, and the IDs global holds.
//
// Ranking global's current records costs a pass over every row of it, which
// grows with the team's history while what a view shows does not. So the
// view is kept in a file named by the trees of global's directories it was
// made from (never stale: another tree is another file) and made again only
// when global changes, by promote, pull or a hand-made commit. Every other
// read of global costs the records it shows.
type teamView struct {
	total     int          // current learnings
	learnings []engine.Ref // the first MaxTeamLearnings current learnings, ranked
	decisions []engine.Ref // the first MaxTeam current decisions, ranked
	disputed  []engine.Ref // every disputed current record, ranked
	held      []uint64     // the IDs global holds, sources included; sorted
	// rings are the versions the view keeps of rings of versions (see
	// rings.go), to be marked where they are shown; sorted, and almost
	// always none.
	rings    []uint64
	problems []*changelog.ParseError
}

// inRings is v.rings as engine.MarkRings takes them.
func (v *teamView) inRings() map[uint64]uint64 {
	if len(v.rings) == 0 {
		return nil
	}
	m := make(map[uint64]uint64, len(v.rings))
	for _, id := range v.rings {
		m[id] = 0
	}
	return m
}

// holds reports whether global holds the record of ID hash id.
func (v *teamView) holds(id uint64) bool {
	_, ok := slices.BinarySearch(v.held, id)
	return ok
}

// team reads global's team view: from its file when one was kept for
// global's trees, else from global's rows, keeping it for the next read.
func (rd *Reader) team() (*teamView, error) {
	tip, err := rd.e.Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	segs, problems, err := rd.e.Segments([]staterepo.Hash{tip}, promoted)
	if err != nil {
		return nil, err
	}
	problems = engine.WithSegmentProblems(problems, segs)
	file := filepath.Join(rd.e.CacheDir(), "views", "team", teamViewKey(segs)+".view")
	if v, err := readTeamView(file, segs); err == nil {
		v.problems = problems
		return v, nil
	}
	v := teamFromRows(engine.RowsOf(segs, problems))
	engine.KeepView(file, v.encode(segs), keepViews)
	return v, nil
}

// keepViews is how many team views the cache keeps: global's current one,
// and a few that readers of an older global (another process, a moment
// ago) may still ask for.
const keepViews = 8

// teamFromRows ranks global's rows into its view.
func teamFromRows(rs *engine.RowSet) *teamView {
	current := rs.Current()
	v := &teamView{held: make([]uint64, 0, len(rs.Refs())), problems: rs.Problems()}
	// Every ID global has, current or not: an agent's copy of a record
	// global archived, retracted or replaced is not the agent's own to show.
	for _, r := range rs.Refs() {
		v.held = append(v.held, r.ID())
	}
	var learned, decided []engine.Ref
	for _, r := range current {
		if kind := r.Kind(); kind == changelog.KindLearning {
			learned = append(learned, r)
		} else if kind == changelog.KindDecision {
			decided = append(decided, r)
		}
		if r.Disputed() {
			v.disputed = append(v.disputed, r)
		}
	}
	for _, s := range rs.Segments() {
		v.held = append(v.held, s.Sources()...)
	}
	for id := range rs.Rings() {
		v.rings = append(v.rings, id)
	}
	slices.Sort(v.rings)
	slices.Sort(v.held)
	v.held = slices.Compact(v.held)
	v.total = len(learned)
	v.learnings = engine.FirstBy(learned, MaxTeamLearnings, rankOrder)
	v.decisions = engine.FirstBy(decided, MaxTeam, rankOrder)
	slices.SortFunc(v.disputed, rankOrder)
	return v
}

// teamViewVersion numbers the file's layout and what it holds; a file of
// another is made again. A change to rankOrder must raise it (a change to
// Priority raises engine.SegmentVersion, which the key holds too): the file keeps
// an order, not the means to make it. 3: the rings of versions.
const teamViewVersion = 3

// teamViewKey names the view of the segments: their trees, in order, and
// what the view keeps of them.
func teamViewKey(segs []*engine.Segment) string {
	h := sha256.New()
	fmt.Fprintf(h, "team view %d, segments %d, %d learnings, %d decisions\n", teamViewVersion, engine.SegmentVersion, MaxTeamLearnings, MaxTeam)
	for _, s := range segs {
		fmt.Fprintf(h, "%s %s\n", s.Path(), s.Tree())
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// A team view's file: a head of seven counts (version, total learnings,
// and how many learnings, decisions, disputed, held IDs and rings
// follow), the refs as a segment's place in the view's segments and a row
// in it, the held IDs, the rings' IDs.
const teamHeadSize = 7 * 4

func (v *teamView) encode(segs []*engine.Segment) []byte {
	place := make(map[*engine.Segment]uint32, len(segs))
	for i, s := range segs {
		place[s] = uint32(i)
	}
	b := make([]byte, 0, teamHeadSize+8*(len(v.learnings)+len(v.decisions)+len(v.disputed))+8*(len(v.held)+len(v.rings)))
	for _, n := range []int{teamViewVersion, v.total, len(v.learnings), len(v.decisions), len(v.disputed), len(v.held), len(v.rings)} {
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
	}
	for _, list := range [][]engine.Ref{v.learnings, v.decisions, v.disputed} {
		for _, r := range list {
			b = binary.LittleEndian.AppendUint32(b, place[r.Segment()])
			b = binary.LittleEndian.AppendUint32(b, uint32(r.Row()))
		}
	}
	for _, list := range [][]uint64{v.held, v.rings} {
		for _, id := range list {
			b = binary.LittleEndian.AppendUint64(b, id)
		}
	}
	return b
}

// readTeamView reads the view kept in file for segs. A file missing, of
// another version, damaged, or naming rows the segments do not have is an
// error: the view is made again from the rows.
func readTeamView(file string, segs []*engine.Segment) (*teamView, error) {
	data, err := engine.ReadView(file)
	if err != nil {
		return nil, err
	}
	if len(data) < teamHeadSize {
		return nil, fmt.Errorf("%w: %s is cut short", engine.ErrDamagedView, file)
	}
	head := make([]int, 7)
	for i := range head {
		head[i] = int(binary.LittleEndian.Uint32(data[4*i:]))
	}
	if head[0] != teamViewVersion {
		return nil, fmt.Errorf("%w: %s is of version %d", engine.ErrDamagedView, file, head[0])
	}
	nRefs, nHeld, nRings := head[2]+head[3]+head[4], head[5], head[6]
	if len(data) != teamHeadSize+8*nRefs+8*nHeld+8*nRings {
		return nil, fmt.Errorf("%w: %s has the wrong length", engine.ErrDamagedView, file)
	}
	refs := make([]engine.Ref, nRefs)
	at := teamHeadSize
	for k := range refs {
		s, i := int(binary.LittleEndian.Uint32(data[at:])), int(binary.LittleEndian.Uint32(data[at+4:]))
		if s >= len(segs) || i >= segs[s].Len() {
			return nil, fmt.Errorf("%w: %s names a row its segments lack", engine.ErrDamagedView, file)
		}
		refs[k] = engine.RefAt(segs[s], i)
		at += 8
	}
	v := &teamView{total: head[1], held: make([]uint64, nHeld)}
	if nRings > 0 {
		v.rings = make([]uint64, nRings)
	}
	for _, list := range [][]uint64{v.held, v.rings} {
		for k := range list {
			list[k] = binary.LittleEndian.Uint64(data[at:])
			at += 8
		}
	}
	v.learnings, v.decisions, v.disputed = refs[:head[2]:head[2]], refs[head[2]:head[2]+head[3]:head[2]+head[3]], refs[head[2]+head[3]:]
	return v, nil
}
