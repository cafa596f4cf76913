package logic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The expected values below were checked against logic-solver 2.0.1.

func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = r.(*Error).Msg
		}
	}()
	f()
	return ""
}

func TestTermsAndConstructors(t *testing.T) {
	require.Equal(t, "-a", Not("a"))
	require.Equal(t, "a", Not("-a"))
	require.Equal(t, "-a", Not("--a"))
	require.Equal(t, -3, Not(3))
	require.IsType(t, &notFormula{}, Not(Or("a", "b")))
	require.Equal(t, False, Or())
	require.Equal(t, True, And())
	require.Equal(t, False, Xor())
	require.Equal(t, False, ExactlyOne())
	require.Equal(t, True, AtMostOne("x"))
	require.Equal(t, "x", Or("x"))
	require.Equal(t, "x", And([]any{"x"}))
	require.True(t, IsTerm("a"))
	require.True(t, IsTerm("1a"))
	require.False(t, IsTerm("--12"))
	require.False(t, IsTerm(""))
	require.False(t, IsTerm(0))

	require.Equal(t, `"12" is not a Formula or Term`, panicMessage(func() { Not("12") }))
	require.Equal(t, `a,12 is not an array of a Formula or Term`, panicMessage(func() { Or("a", "12") }))
	require.Equal(t, `a,b, is not an array of a Formula or Term`, panicMessage(func() { And([]any{"a", []string{"b", ""}}) }))
	require.Equal(t, `-1 is not a whole number (integer >= 0)`, panicMessage(func() { ConstantBits(-1) }))
	require.Equal(t, `Formula array and weight array must be same length; they are 1 and 2`,
		panicMessage(func() { WeightedSum([]any{"a"}, []int{1, 2}) }))
	require.Equal(t, `-1 is not an array of a whole number (integer >= 0)`,
		panicMessage(func() { WeightedSum([]any{"a"}, []int{-1}) }))
}

// TestOperandDisplay: the messages print a string operand as
// JSON.stringify does (control characters and lone surrogates escaped) and
// other operands as String(x) does.
func TestOperandDisplay(t *testing.T) {
	tests := []struct {
		x    any
		want string
	}{
		{"a\tb\x01\"", `"a\tb\u0001\""`},
		{"\xed\xa0\x80", `"\ud800"`},
		{"é", `"é"`},
		{1e-7, "1e-7"},
		{1e21, "1e+21"},
		{[]any{"a", nil, 2}, "a,,2"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, display(tc.x), "%#v", tc.x)
	}
}

func TestSolverErrors(t *testing.T) {
	s := NewSolver()
	require.EqualError(t, s.Require("$x"), "Only generated variable names can start with $")
	_, err := s.GetVarName(99)
	require.EqualError(t, err, "Bad variable num: 99")
	n, err := s.GetVarNum("$T", false)
	require.NoError(t, err)
	require.Equal(t, NumTrue, n)
}

func TestEnumerateAll(t *testing.T) {
	s := NewSolver()
	require.NoError(t, s.Require(ExactlyOne("a", "b", "c")))
	var all [][]string
	for {
		sol, err := s.Solve()
		require.NoError(t, err)
		if sol == nil {
			break
		}
		all = append(all, sol.GetTrueVars())
		require.NoError(t, s.Forbid(sol.GetFormula()))
	}
	require.Equal(t, [][]string{{"a"}, {"c"}, {"b"}}, all)
}

func TestBitsAndEvaluate(t *testing.T) {
	s := NewSolver()
	require.NoError(t, s.Require(EqualBits(Sum("a", "b", "c"), ConstantBits(2))))
	sol, err := s.Solve()
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, sol.GetTrueVars())
	require.Equal(t, map[string]bool{"a": true, "b": true, "c": false}, sol.GetMap())
	_, err = sol.Evaluate("zz")
	require.EqualError(t, err, "No such variable: zz")
	v, err := sol.EvaluateBits(Sum("a", "b", "c"))
	require.NoError(t, err)
	require.Equal(t, 2, v)
	sum, err := sol.GetWeightedSum([]any{"a", "b", "c"}, []int{1, 10, 100})
	require.NoError(t, err)
	require.Equal(t, 11, sum)
}

func TestJSSortOrder(t *testing.T) {
	// UTF-16 code unit order: a supplementary character (surrogates
	// D800-DFFF) sorts before U+FFEE, unlike in UTF-8 byte order.
	require.True(t, jsLess("😀", "\uffee"))
	require.True(t, jsLess("B", "a"))
	require.True(t, jsLess("a", "ab"))
}
