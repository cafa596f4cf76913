package js

import "math"

// Ports of fdlibm's __ieee754_log, __ieee754_exp and __ieee754_pow (Sun
// Microsystems, 1993-2004, freely redistributable) as V8 (v8::base::ieee754)
// compiles them for Math.log, Math.exp and Math.pow. Go's math package gives
// results that differ in the last bit for a noticeable share of inputs, which
// can move a regression result of model/expr across a rounding boundary.

func hi(x float64) int32  { return int32(math.Float64bits(x) >> 32) }
func lo(x float64) uint32 { return uint32(math.Float64bits(x)) }

func fromWords(h int32, l uint32) float64 {
	return math.Float64frombits(uint64(uint32(h))<<32 | uint64(l))
}

func withHi(x float64, h int32) float64  { return fromWords(h, lo(x)) }
func withLo(x float64, l uint32) float64 { return fromWords(hi(x), l) }

const (
	ln2Hi = 6.93147180369123816490e-01 // 0x3fe62e42 fee00000
	ln2Lo = 1.90821492927058770002e-10 // 0x3dea39ef 35793c76
	two54 = 1.80143985094819840000e+16 // 0x43500000 00000000
	lg1   = 6.666666666666735130e-01   // 3FE55555 55555593
	lg2   = 3.999999999940941908e-01   // 3FD99999 9997FA04
	lg3   = 2.857142874366239149e-01   // 3FD24924 94229359
	lg4   = 2.222219843214978396e-01   // 3FCC71C5 1D8E78AF
	lg5   = 1.818357216161805012e-01   // 3FC74664 96CB03DE
	lg6   = 1.531383769920937332e-01   // 3FC39A09 D078C69F
	lg7   = 1.479819860511658591e-01   // 3FC2F112 DF3E5244
)

// Log is Math.log (fdlibm e_log.c).
func Log(x float64) float64 {
	hx := hi(x)
	lx := lo(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if (hx&0x7fffffff)|int32(lx) == 0 {
			return math.Inf(-1) // log(+-0) = -inf
		}
		if hx < 0 {
			return math.NaN() // log(-#) = NaN
		}
		k -= 54
		x *= two54 // subnormal number, scale up x
		hx = hi(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += (hx >> 20) - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = withHi(x, hx|(i^0x3ff00000)) // normalize x or x/2
	k += i >> 20
	f := x - 1.0
	if (0x000fffff & (2 + hx)) < 3 { // |f| < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			dk := float64(k)
			return float64(dk*ln2Hi) + float64(dk*ln2Lo)
		}
		R := f * f * (0.5 - float64(0.33333333333333333*f))
		if k == 0 {
			return f - R
		}
		dk := float64(k)
		return float64(dk*ln2Hi) - ((R - float64(dk*ln2Lo)) - f)
	}
	s := f / (2.0 + f)
	dk := float64(k)
	z := float64(s * s)
	i = hx - 0x6147a
	w := float64(z * z)
	j := 0x6b851 - hx
	t1 := float64(w * (lg2 + float64(w*(lg4+float64(w*lg6)))))
	t2 := float64(z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7)))))))
	i |= j
	R := t2 + t1
	if i > 0 {
		hfsq := float64(0.5 * f * f)
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+R)))
		}
		return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(dk*ln2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-R))
	}
	return float64(dk*ln2Hi) - ((float64(s*(f-R)) - float64(dk*ln2Lo)) - f)
}

const (
	expHuge     = 1.0e+300
	twom1000    = 9.33263618503218878990e-302 // 2**-1000
	oThreshold  = 7.09782712893383973096e+02
	uThreshold  = -7.45133219101941108420e+02
	invln2      = 1.44269504088896338700e+00
	expP1       = 1.66666666666666019037e-01
	expP2       = -2.77777777770155933842e-03
	expP3       = 6.61375632143793436117e-05
	expP4       = -1.65339022054652515390e-06
	expP5       = 4.13813679705723846039e-08
	expLn2HiNeg = -6.93147180369123816490e-01
	expLn2LoNeg = -1.90821492927058770002e-10
)

// Exp is Math.exp (fdlibm e_exp.c).
func Exp(x float64) float64 {
	halF := [2]float64{0.5, -0.5}
	ln2HI := [2]float64{ln2Hi, expLn2HiNeg}
	ln2LO := [2]float64{ln2Lo, expLn2LoNeg}
	hx := uint32(hi(x))
	xsb := int((hx >> 31) & 1)
	hx &= 0x7fffffff
	var hiPart, loPart float64
	k := 0

	if hx >= 0x40862E42 { // |x| >= 709.78...
		if hx >= 0x7ff00000 {
			if (hx&0xfffff)|lo(x) != 0 {
				return x + x // NaN
			}
			if xsb == 0 {
				return x
			}
			return 0
		}
		if x > oThreshold {
			return math.Inf(1)
		}
		if x < uThreshold {
			return 0
		}
	}

	if hx > 0x3fd62e42 { // |x| > 0.5 ln2
		if hx < 0x3FF0A2B2 { // and |x| < 1.5 ln2
			if x == 1 {
				return 2.718281828459045 // FreeBSD msun returns e exactly
			}
			hiPart = x - ln2HI[xsb]
			loPart = ln2LO[xsb]
			k = 1 - xsb - xsb
		} else {
			k = int(float64(invln2*x) + halF[xsb])
			t := float64(k)
			hiPart = x - float64(t*ln2HI[0])
			loPart = float64(t * ln2LO[0])
		}
		x = hiPart - loPart
	} else if hx < 0x3e300000 { // |x| < 2**-28
		if expHuge+x > 1 {
			return 1 + x
		}
	} else {
		k = 0
	}

	t := float64(x * x)
	c := x - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
	if k == 0 {
		return 1 - (float64(x*c)/(c-2.0) - x)
	}
	y := 1 - ((loPart - float64(x*c)/(2.0-c)) - hiPart)
	if k >= -1021 {
		return withHi(y, hi(y)+int32(k<<20))
	}
	return withHi(y, hi(y)+int32((k+1000)<<20)) * twom1000
}

const (
	two53  = 9007199254740992.0
	powL1  = 5.99999999999994648725e-01
	powL2  = 4.28571428578550184252e-01
	powL3  = 3.33333329818377432918e-01
	powL4  = 2.72728123808534006489e-01
	powL5  = 2.30660745775561754067e-01
	powL6  = 2.06975017800338417784e-01
	lg2c   = 6.93147180559945286227e-01
	lg2H   = 6.93147182464599609375e-01
	lg2L   = -1.90465429995776804525e-09
	ovt    = 8.0085662595372944372e-17
	cp     = 9.61796693925975554329e-01
	cpH    = 9.61796700954437255859e-01
	cpL    = -7.02846165095275826516e-09
	ivln2  = 1.44269504088896338700e+00
	ivln2H = 1.44269502162933349609e+00
	ivln2L = 1.92596299112661746887e-08
)

// Pow is Math.pow: V8's version of fdlibm's e_pow.c, which already has the
// ECMAScript special cases (1 ** ±Infinity and 1 ** NaN are NaN) and differs
// from fdlibm in one expression of the final step (see below). It is a
// line-by-line port of e_pow.c, kept in one piece so that it can be read
// against the C source; that is why it is longer than our functions are.
func Pow(x, y float64) float64 {
	bp := [2]float64{1.0, 1.5}
	dpH := [2]float64{0.0, 5.84962487220764160156e-01}
	dpL := [2]float64{0.0, 1.35003920212974897128e-08}

	hx, lx := hi(x), lo(x)
	hy, ly := hi(y), lo(y)
	ix := hx & 0x7fffffff
	iy := hy & 0x7fffffff

	// y == 0: x**0 = 1
	if uint32(iy)|ly == 0 {
		return 1
	}
	// NaN operands
	if ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0) {
		return x + y
	}

	// yisint = 0: y not an integer, 1: odd integer, 2: even integer (x < 0)
	yisint := int32(0)
	if hx < 0 {
		if iy >= 0x43400000 {
			yisint = 2
		} else if iy >= 0x3ff00000 {
			k := (iy >> 20) - 0x3ff
			if k > 20 {
				j := ly >> uint(52-k)
				if j<<uint(52-k) == ly {
					yisint = 2 - int32(j&1)
				}
			} else if ly == 0 {
				j := iy >> uint(20-k)
				if j<<uint(20-k) == iy {
					yisint = 2 - (j & 1)
				}
			}
		}
	}

	// special values of y
	if ly == 0 {
		if iy == 0x7ff00000 { // y is +-inf
			if (ix-0x3ff00000)|int32(lx) == 0 {
				return y - y // (+-1)**+-inf is NaN
			} else if ix >= 0x3ff00000 { // (|x|>1)**+-inf = inf,0
				if hy >= 0 {
					return y
				}
				return 0
			}
			if hy < 0 { // (|x|<1)**-,+inf = inf,0
				return -y
			}
			return 0
		}
		if iy == 0x3ff00000 { // y is +-1
			if hy < 0 {
				return 1 / x
			}
			return x
		}
		if hy == 0x40000000 { // y is 2
			return x * x
		}
		if hy == 0x3fe00000 { // y is 0.5
			if hx >= 0 { // x >= +0
				return math.Sqrt(x)
			}
		}
	}

	ax := math.Abs(x)
	// special values of x
	if lx == 0 {
		if ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000 {
			z := ax // x is +-0,+-inf,+-1
			if hy < 0 {
				z = 1 / z
			}
			if hx < 0 {
				if (ix-0x3ff00000)|yisint == 0 {
					z = (z - z) / (z - z) // (-1)**non-int is NaN
				} else if yisint == 1 {
					z = -z
				}
			}
			return z
		}
	}

	n := (hx >> 31) + 1 // 0 for negative x, 1 otherwise
	// (x<0)**(non-int) is NaN
	if n|yisint == 0 {
		return (x - x) / (x - x)
	}

	s := 1.0 // sign of the result
	if n|(yisint-1) == 0 {
		s = -1
	}

	var t1, t2 float64
	if iy > 0x41e00000 { // |y| > 2**31
		if iy > 0x43f00000 { // |y| > 2**64, must o/uflow
			if ix <= 0x3fefffff {
				if hy < 0 {
					return math.Inf(1)
				}
				return 0
			}
			if ix >= 0x3ff00000 {
				if hy > 0 {
					return math.Inf(1)
				}
				return 0
			}
		}
		// over/underflow if x is not close to one
		if ix < 0x3fefffff {
			if hy < 0 {
				return s * math.Inf(1)
			}
			return s * 0
		}
		if ix > 0x3ff00000 {
			if hy > 0 {
				return s * math.Inf(1)
			}
			return s * 0
		}
		// |1-x| is tiny <= 2**-20: log(x) by x-x^2/2+x^3/3-x^4/4
		t := ax - 1
		w := float64((t * t) * (0.5 - float64(t*(0.3333333333333333333333-float64(t*0.25)))))
		u := float64(ivln2H * t)
		v := float64(t*ivln2L) - float64(w*ivln2)
		t1 = withLo(u+v, 0)
		t2 = v - (t1 - u)
	} else {
		n = 0
		// take care of subnormal numbers
		if ix < 0x00100000 {
			ax *= two53
			n -= 53
			ix = hi(ax)
		}
		n += (ix >> 20) - 0x3ff
		j := ix & 0x000fffff
		// determine interval
		ix = j | 0x3ff00000 // normalize ix
		k := 0
		if j <= 0x3988E { // |x| < sqrt(3/2)
			k = 0
		} else if j < 0xBB67A { // |x| < sqrt(3)
			k = 1
		} else {
			k = 0
			n++
			ix -= 0x00100000
		}
		ax = withHi(ax, ix)

		// ss = s_h+s_l = (x-1)/(x+1) or (x-1.5)/(x+1.5)
		u := ax - bp[k]
		v := 1 / (ax + bp[k])
		ss := float64(u * v)
		sH := withLo(ss, 0)
		// t_h = ax+bp[k] High
		tH := fromWords(((ix>>1)|0x20000000)+0x00080000+int32(k<<18), 0)
		tL := ax - (tH - bp[k])
		sL := float64(v * ((u - float64(sH*tH)) - float64(sH*tL)))
		// log(ax)
		s2 := float64(ss * ss)
		r := float64(s2 * s2 * (powL1 + float64(s2*(powL2+float64(s2*(powL3+float64(s2*(powL4+float64(s2*(powL5+float64(s2*powL6)))))))))))
		r += float64(sL * (sH + ss))
		s2 = float64(sH * sH)
		tH = withLo(3.0+s2+r, 0)
		tL = r - ((tH - 3.0) - s2)
		// u+v = ss*(1+...)
		u = float64(sH * tH)
		v = float64(sL*tH) + float64(tL*ss)
		// 2/(3log2)*(ss+...)
		pH := withLo(u+v, 0)
		pL := v - (pH - u)
		zH := float64(cpH * pH) // cp_h+cp_l = 2/(3*log2)
		zL := float64(cpL*pH) + float64(pL*cp) + dpL[k]
		// log2(ax) = (ss+..)*2/(3*log2) = n + dp_h + z_h + z_l
		t := float64(n)
		t1 = withLo(((zH+zL)+dpH[k])+t, 0)
		t2 = zL - (((t1 - t) - dpH[k]) - zH)
	}

	// split up y into y1+y2 and compute (y1+y2)*(t1+t2)
	y1 := withLo(y, 0)
	pL := float64((y-y1)*t1) + float64(y*t2)
	pH := float64(y1 * t1)
	z := pL + pH
	j := hi(z)
	i := int32(lo(z))
	if j >= 0x40900000 { // z >= 1024
		if (j-0x40900000)|i != 0 { // z > 1024
			return s * math.Inf(1)
		}
		if pL+ovt > z-pH {
			return s * math.Inf(1)
		}
	} else if (j & 0x7fffffff) >= 0x4090cc00 { // z <= -1075
		if uint32(j)-0xc090cc00|uint32(i) != 0 { // z < -1075
			return s * 0
		}
		if pL <= z-pH {
			return s * 0
		}
	}
	// compute 2**(p_h+p_l)
	i = j & 0x7fffffff
	k := (i >> 20) - 0x3ff
	n = 0
	if i > 0x3fe00000 { // if |z| > 0.5, set n = [z+0.5]
		n = j + (0x00100000 >> uint(k+1))
		k = ((n & 0x7fffffff) >> 20) - 0x3ff // new k for n
		t := fromWords(n&^(0x000fffff>>uint(k)), 0)
		n = ((n & 0x000fffff) | 0x00100000) >> uint(20-k)
		if j < 0 {
			n = -n
		}
		pH -= t
	}
	t := withLo(pL+pH, 0)
	u := float64(t * lg2H)
	v := float64((pL-(t-pH))*lg2c) + float64(t*lg2L)
	z = u + v
	w := v - (z - u)
	t = float64(z * z)
	t1 = z - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
	// V8's port divides by the whole (t1-2) - (w+z*w), where fdlibm computes
	// (z*t1)/(t1-2) - (w+z*w); node's Math.pow has that difference.
	r := float64(z*t1) / ((t1 - 2) - (w + float64(z*w)))
	z = 1 - (r - z)
	j = hi(z)
	j += n << 20
	if (j >> 20) <= 0 {
		z = math.Ldexp(z, int(n)) // subnormal output
	} else {
		z = withHi(z, hi(z)+(n<<20))
	}
	return s * z
}
