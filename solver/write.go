package solver

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteDIMACS writes cnf as DIMACS CNF (solver.md §5.11): the `p cnf` header
// first (gophersat's ParseCNF needs it before any clause), then one
// `c <var> <name>` comment per named variable (names[v] names variable v;
// names may be nil or short, empty names are skipped), then the clauses in
// order. Output is streamed; nothing is built with string concatenation.
func WriteDIMACS(w io.Writer, cnf *CNF, names []string) error {
	if err := validateCNF(cnf); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	if err := writeHeader(bw, buf, cnf, names, "p cnf ", " ", "c "); err != nil {
		return err
	}
	set := cnf.set()
	for i := range set.len() {
		c := set.at(i)
		buf = buf[:0]
		for _, l := range c {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, '0', '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeHeader writes the header line "<before>N<between>M", with N the
// number of variables and M the number of clauses of cnf, then one comment
// line per name, starting with comment; buf is scratch space.
func writeHeader(bw *bufio.Writer, buf []byte, cnf *CNF, names []string, before, between, comment string) error {
	buf = append(buf[:0], before...)
	buf = strconv.AppendInt(buf, int64(cnf.NumVars), 10)
	buf = append(buf, between...)
	set := cnf.set()
	buf = strconv.AppendInt(buf, int64(set.len()), 10)
	buf = append(buf, '\n')
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return writeNames(bw, comment, names, cnf.NumVars)
}

// WriteOPB writes cnf and an optional objective as OPB (solver.md §5.11): a
// `* #variable= … #constraint= …` header, one `* x<N> <name>` comment per
// named variable, a `min:` line when obj is not nil (maximisation is written
// by negating the coefficients), and every clause as a `>= 1` constraint over
// x<N> and ~x<N>. That is the subset gophersat's ParseOPB reads. Its reader
// has limits of its own: it rejects lines over 64 KiB, misses contradictory
// unit constraints, and its solver crashes on constraints with repeated
// literals (the canaries in this package), so round trips through it only
// work on small, clean formulas such as residuals.
func WriteOPB(w io.Writer, cnf *CNF, obj *Objective, names []string) error {
	if err := validateCNF(cnf); err != nil {
		return err
	}
	if obj != nil {
		if len(obj.Lits) != len(obj.Weights) {
			return fmt.Errorf("solver: objective: %d literals but %d weights", len(obj.Lits), len(obj.Weights))
		}
		for _, l := range obj.Lits {
			if l == 0 || l > cnf.NumVars || -l > cnf.NumVars {
				return fmt.Errorf("solver: objective: literal %d out of range ±1..%d", l, cnf.NumVars)
			}
		}
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	if err := writeHeader(bw, buf, cnf, names, "* #variable= ", " #constraint= ", "* x"); err != nil {
		return err
	}
	if obj != nil {
		buf = append(buf[:0], "min:"...)
		for i, l := range obj.Lits {
			wt := obj.Weights[i]
			if obj.Maximize {
				wt = -wt
			}
			buf = append(buf, ' ')
			if wt >= 0 {
				buf = append(buf, '+')
			}
			buf = strconv.AppendInt(buf, wt, 10)
			buf = appendOPBLit(buf, l)
		}
		buf = append(buf, " ;\n"...)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	set := cnf.set()
	for i := range set.len() {
		c := set.at(i)
		buf = buf[:0]
		if len(c) == 0 {
			// OPB has no empty sum; a zero-weight term makes the constraint
			// unsatisfiable just the same.
			buf = append(buf, "0 x1 >= 1 ;\n"...)
		} else {
			for i, l := range c {
				if i > 0 {
					buf = append(buf, ' ')
				}
				buf = append(buf, "+1"...)
				buf = appendOPBLit(buf, l)
			}
			buf = append(buf, " >= 1 ;\n"...)
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func appendOPBLit(buf []byte, l int) []byte {
	buf = append(buf, ' ')
	if l < 0 {
		buf = append(buf, '~')
		l = -l
	}
	buf = append(buf, 'x')
	return strconv.AppendInt(buf, int64(l), 10)
}

// writeNames writes `<prefix><v> <name>` comment lines. Line breaks in a name
// would end the comment early, so they are written as spaces.
func writeNames(bw *bufio.Writer, prefix string, names []string, nv int) error {
	buf := make([]byte, 0, 64)
	for v := 1; v < len(names) && v <= nv; v++ {
		name := names[v]
		if name == "" {
			continue
		}
		if strings.ContainsAny(name, "\r\n") {
			name = strings.NewReplacer("\r", " ", "\n", " ").Replace(name)
		}
		buf = append(buf[:0], prefix...)
		buf = strconv.AppendInt(buf, int64(v), 10)
		buf = append(buf, ' ')
		buf = append(buf, name...)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
