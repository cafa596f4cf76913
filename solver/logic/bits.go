package logic

import (
	"slices"
)

// Bits is a list of formulas or terms that together stand for a
// non-negative integer, least significant bit first (Logic.Bits).
type Bits struct{ bits []any }

// NewBits makes a Bits of the given formulas or terms (slices are
// flattened).
func NewBits(formulas ...any) *Bits {
	fs := flatten(formulas)
	assertArrayOfFormulaOrTerm(fs)
	return &Bits{bits: fs}
}

// Terms returns the bits, least significant first.
func (b *Bits) Terms() []any { return append([]any(nil), b.bits...) }

// ConstantBits is the constant n as True/False bits (no bits for 0).
func ConstantBits(n int) *Bits {
	assertWholeNumber(n)
	var result []any
	for n != 0 {
		if n&1 != 0 {
			result = append(result, True)
		} else {
			result = append(result, False)
		}
		n >>= 1
	}
	return &Bits{bits: result}
}

func assertBits(b *Bits) {
	if b == nil {
		throw("null is not a Bits")
	}
}

// LessThanOrEqual is bits1 <= bits2.
func LessThanOrEqual(bits1, bits2 *Bits) Formula {
	assertBits(bits1)
	assertBits(bits2)
	return &lteFormula{bits1, bits2}
}

// LessThan is bits1 < bits2.
func LessThan(bits1, bits2 *Bits) Formula {
	assertBits(bits1)
	assertBits(bits2)
	return &ltFormula{bits1, bits2}
}

// GreaterThan is bits1 > bits2 (a LessThan with swapped operands).
func GreaterThan(bits1, bits2 *Bits) Formula { return LessThan(bits2, bits1) }

// GreaterThanOrEqual is bits1 >= bits2 (a LessThanOrEqual with swapped
// operands).
func GreaterThanOrEqual(bits1, bits2 *Bits) Formula { return LessThanOrEqual(bits2, bits1) }

// EqualBits is bits1 == bits2.
func EqualBits(bits1, bits2 *Bits) Formula {
	assertBits(bits1)
	assertBits(bits2)
	return &equalBitsFormula{bits1, bits2}
}

func genLTE(bits1, bits2 *Bits, t *termifier, notEqual bool) []*clause {
	var ret []*clause
	a := append([]any(nil), bits1.bits...)
	b := append([]any(nil), bits2.bits...)
	if notEqual && len(bits2.bits) == 0 {
		return []*clause{t.clause()}
	}
	for len(a) > len(b) {
		hi := a[len(a)-1]
		a = a[:len(a)-1]
		ret = append(ret, t.clause(Not(hi)))
	}
	xors := make([]any, len(b))
	for i, bi := range b {
		if i < len(a) {
			xors[i] = Xor(a[i], bi)
		} else {
			xors[i] = bi
		}
	}
	for i, v := range slices.Backward(a) {
		ret = append(ret, t.clause(append([]any(nil), xors[i+1:]...), Not(v), b[i]))
	}
	if notEqual {
		ret = append(ret, t.generate(true, Or(xors))...)
	}
	return ret
}

func (f *lteFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	if isTrue {
		return genLTE(f.bits1, f.bits2, t, false)
	}
	return genLTE(f.bits2, f.bits1, t, true)
}

func (f *ltFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	if isTrue {
		return genLTE(f.bits1, f.bits2, t, true)
	}
	return genLTE(f.bits2, f.bits1, t, false)
}

func (f *equalBitsFormula) generateClauses(isTrue bool, t *termifier) []*clause {
	a, b := f.bits1.bits, f.bits2.bits
	n := max(len(b), len(a))
	facts := make([]any, 0, n)
	for i := range n {
		switch {
		case i >= len(a):
			facts = append(facts, Not(b[i]))
		case i >= len(b):
			facts = append(facts, Not(a[i]))
		default:
			facts = append(facts, Equiv(a[i], b[i]))
		}
	}
	return t.generate(isTrue, And(facts))
}

// binaryWeightedSum is the adder network of the MiniSat+ paper, exactly as
// logic-solver builds it (taking operands from the end of each bucket).
func binaryWeightedSum(varsByWeight [][]any) []any {
	buckets := make([][]any, len(varsByWeight))
	for i, b := range varsByWeight {
		buckets[i] = append([]any(nil), b...)
	}
	lowest := 0
	var output []any
	for lowest < len(buckets) {
		bucket := buckets[lowest]
		switch len(bucket) {
		case 0:
			output = append(output, False)
			lowest++
		case 1:
			output = append(output, bucket[0])
			lowest++
		case 2:
			sum := &halfAdderSum{bucket[0], bucket[1]}
			carry := &halfAdderCarry{bucket[0], bucket[1]}
			buckets[lowest] = append(bucket[:0], sum)
			buckets = pushToNth(buckets, lowest+1, carry)
		default:
			c := bucket[len(bucket)-1]
			b := bucket[len(bucket)-2]
			a := bucket[len(bucket)-3]
			bucket = bucket[:len(bucket)-3]
			sum := &fullAdderSum{a, b, c}
			carry := &fullAdderCarry{a, b, c}
			buckets[lowest] = append(bucket, sum)
			buckets = pushToNth(buckets, lowest+1, carry)
		}
	}
	return output
}

func pushToNth(xs [][]any, n int, item any) [][]any {
	for n >= len(xs) {
		xs = append(xs, nil)
	}
	xs[n] = append(xs[n], item)
	return xs
}

func checkWeightedSumArgs(formulas []any, weights []int) {
	assertArrayOfFormulaOrTerm(formulas)
	for _, w := range weights {
		if !isWholeNumber(w) {
			throw("%s is not an array of a whole number (integer >= 0)", jsString(weights))
		}
	}
	if len(formulas) != len(weights) {
		throw("Formula array and weight array must be same length; they are %d and %d", len(formulas), len(weights))
	}
}

// WeightedSum is the Bits of the sum of weights[i] for the true
// formulas[i]. Weights must be whole numbers below 2^31.
func WeightedSum(formulas []any, weights []int) *Bits {
	checkWeightedSumArgs(formulas, weights)
	if len(formulas) == 0 {
		return &Bits{}
	}
	var binaryWeighted [][]any
	for i, f := range formulas {
		w := weights[i]
		whichBit := 0
		for w != 0 {
			if w&1 != 0 {
				binaryWeighted = pushToNth(binaryWeighted, whichBit, f)
			}
			w >>= 1
			whichBit++
		}
	}
	return &Bits{bits: binaryWeightedSum(binaryWeighted)}
}

// Sum adds formulas, terms (worth 1 each) and Bits.
func Sum(args ...any) *Bits {
	things := flattenBits(args)
	for _, x := range things {
		if _, ok := x.(*Bits); !ok && !isFormulaOrTerm(x) {
			throw("%s is not an array of a Formula, Term, or Bits", display(things))
		}
	}
	var binaryWeighted [][]any
	for _, x := range things {
		if b, ok := x.(*Bits); ok {
			for i, bit := range b.bits {
				binaryWeighted = pushToNth(binaryWeighted, i, bit)
			}
		} else {
			binaryWeighted = pushToNth(binaryWeighted, 0, x)
		}
	}
	return &Bits{bits: binaryWeightedSum(binaryWeighted)}
}

func flattenBits(args []any) []any {
	var out []any
	for _, a := range args {
		if bs, ok := a.([]*Bits); ok {
			for _, b := range bs {
				out = append(out, b)
			}
			continue
		}
		out = append(out, flatten([]any{a})...)
	}
	return out
}
