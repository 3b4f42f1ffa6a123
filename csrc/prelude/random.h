/* gpunp kernel prelude: the distributions of gpunp.random.
 *
 * Put in front of the kernels of gp_random_fill's distributions from
 * GP_RANDOM_GAMMA on (csrc/kernels/random.c), after the common prelude,
 * whose Philox4x32-10, uniforms, log, sin/cos and sqrt it uses. Only those
 * kernels pay for compiling it.
 *
 * Every function here is made of integer operations, IEEE +, -, *, / of
 * doubles, conversions and the exact floor/fabs/fmod, so that the host and
 * every GPU compute the same bits (docs/architecture.md, "Random numbers").
 * Each element of a result has its own stream of 64-bit words: block j of
 * the call (j the element, or the row of a row distribution) at attempt 0,
 * 1, 2... (counter word 3), two words a 64-bit number. A rejection sampler
 * takes as many as it needs; it never reads another element's block. */

/* ---- an element's stream ----------------------------------------------- */
typedef struct gpk_rng {
    gpk_philox g;
    gpk_u64 j;          /* the block: the element */
    gpk_u32 attempt;    /* counter word 3's offset of the block in x */
    int k;              /* 64-bit numbers of x used: 0, 1 or 2 */
    gpk_u32x4 x;
    int has_spare;      /* Box-Muller's second normal, kept for the next call */
    double spare;
} gpk_rng;

GPK_HELPER void gpk_rng_init(gpk_rng *s, gpk_philox g, gpk_u64 j)
{
    s->g = g;
    s->j = j;
    s->attempt = 0;
    s->k = 0;
    s->x = gpk_philox_block(g, j, 0u);
    s->has_spare = 0;
    s->spare = 0.0;
}

GPK_HELPER gpk_u64 gpk_rng_next64(gpk_rng *s)
{
    if (s->k == 2) {
        s->x = gpk_philox_block(s->g, s->j, ++s->attempt);
        s->k = 0;
    }
    /* a select, not x.v[2k]: an indexed struct would live in local memory */
    gpk_u64 w = s->k ? gpk_rng_u64(s->x.v[2], s->x.v[3]) : gpk_rng_u64(s->x.v[0], s->x.v[1]);
    s->k++;
    return w;
}

/* Uniform doubles in [0, 1) and in (0, 1]. */
GPK_HELPER double gpk_rng_next_double(gpk_rng *s) { return gpk_rng_unit53(gpk_rng_next64(s)); }
GPK_HELPER double gpk_rng_next_open0(gpk_rng *s) { return gpk_rng_unit53_open0(gpk_rng_next64(s)); }

/* A uniform integer in [0, range1] (Lemire's method, unbiased; a rejected
 * number is replaced by the stream's next). */
GPK_HELPER gpk_u64 gpk_rng_next_bounded(gpk_rng *s, gpk_u64 range1)
{
    gpk_u64 x = gpk_rng_next64(s);
    if (range1 == ~0ULL)
        return x;
    gpk_u64 r = range1 + 1u, hi, lo = gpk_mul64(x, r, &hi);
    if (lo < r) {
        gpk_u64 t = (0ULL - r) % r;
        while (lo < t)
            lo = gpk_mul64(gpk_rng_next64(s), r, &hi);
    }
    return hi;
}

/* ---- elementary functions of exact operations ---------------------------- */

/* log of any double: 0 gives -inf, +inf itself, negatives and NaN a NaN;
 * subnormals are scaled into the normals first. */
GPK_HELPER double gpk_rng_logx(double x)
{
    if (!(x > 0.0))
        return x == 0.0 ? -INFINITY : NAN;
    if (x == INFINITY)
        return x;
    if (x < 2.2250738585072014e-308) /* ln 2^54 = 37.429947750237046... */
        return gpk_rng_log(x * 18014398509481984.0) - 37.42994775023704;
    return gpk_rng_log(x);
}

/* e^x: x = k ln2 + r, |r| <= ln2 / 2 (k ln2 exact in two parts), e^r by
 * fdlibm's e_exp.c rational form (its coefficients; error below 1 ulp),
 * then the exponent k put in by bits, in two steps where 2^k alone would
 * not be a normal double. */
GPK_HELPER double gpk_rng_exp(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
                 inv_ln2 = 1.44269504088896338700e+00;
    const double p1 = 1.66666666666666019037e-01, p2 = -2.77777777770155933842e-03,
                 p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06,
                 p5 = 4.13813679705723846039e-08;
    if (x != x)
        return x;
    if (x > 709.782712893383973096)
        return INFINITY;
    if (x < -745.13321910194110842)
        return 0.0;
    double t = x * inv_ln2;
    int k = (int)(t < 0.0 ? t - 0.5 : t + 0.5);
    double hi = x - (double)k * ln2_hi, lo = (double)k * ln2_lo, r = hi - lo;
    double z = r * r, c = r - z * (p1 + z * (p2 + z * (p3 + z * (p4 + z * p5))));
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    if (k > 1023)
        return y * 2.0 * gpk_f64_from_bits((gpk_u64)(1023 + k - 1) << 52);
    if (k >= -1022)
        return y * gpk_f64_from_bits((gpk_u64)(1023 + k) << 52);
    return y * gpk_f64_from_bits((gpk_u64)(1023 + k + 1000) << 52) *
           gpk_f64_from_bits((gpk_u64)(1023 - 1000) << 52);
}

/* log(1 + x) and e^x - 1 accurate near 0 (Goldberg's and Kahan's
 * corrections of the rounded 1 + x and e^x: the ratio cancels their
 * rounding errors). */
GPK_HELPER double gpk_rng_log1p(double x)
{
    double u = 1.0 + x;
    if (u == 1.0)
        return x;
    if (u == INFINITY || !(u > 0.0))
        return gpk_rng_logx(u);
    return gpk_rng_log(u) * (x / (u - 1.0));
}

GPK_HELPER double gpk_rng_expm1(double x)
{
    double u = gpk_rng_exp(x);
    if (u == 1.0)
        return x;
    double um1 = u - 1.0;
    if (um1 == -1.0 || u == INFINITY)
        return um1;
    return um1 * (x / gpk_rng_log(u));
}

/* x^y for x >= 0: e^(y log x) (the generators' arguments keep y log x
 * moderate, where this loses few bits). */
GPK_HELPER double gpk_rng_pow(double x, double y)
{
    if (y == 0.0)
        return 1.0;
    if (x == 0.0)
        return y > 0.0 ? 0.0 : INFINITY;
    return gpk_rng_exp(y * gpk_rng_logx(x));
}

/* arctan (fdlibm's s_atan.c: its reduction by breakpoints 7/16, 11/16,
 * 19/16, 39/16 and its polynomial), and arccos on [-1, 1] from it. */
GPK_HELPER double gpk_rng_atan(double x)
{
    const double hi0 = 4.63647609000806093515e-01, hi1 = 7.85398163397448278999e-01,
                 hi2 = 9.82793723247329054082e-01, hi3 = 1.57079632679489655800e+00;
    const double lo0 = 2.26987774529616870924e-17, lo1 = 3.06161699786838301793e-17,
                 lo2 = 1.39033110312309984516e-17, lo3 = 6.12323399573676603587e-17;
    const double t0 = 3.33333333333329318027e-01, t1 = -1.99999999998764832476e-01,
                 t2 = 1.42857142725034663711e-01, t3 = -1.11111104054623557880e-01,
                 t4 = 9.09088713343650656196e-02, t5 = -7.69187620504482999495e-02,
                 t6 = 6.66107313738753120669e-02, t7 = -5.83357013379057348645e-02,
                 t8 = 4.97687799461593236017e-02, t9 = -3.65315727442169155270e-02,
                 t10 = 1.62858201153657823623e-02;
    if (x != x)
        return x;
    double a = fabs(x), hi = 0.0, lo = 0.0;
    int reduced = 1;
    if (a >= 7.378697629483821e19) { /* 2^66: atan is pi/2 to the last bit */
        double r = hi3 + lo3;
        return x < 0.0 ? -r : r;
    }
    if (a < 0.4375) {
        if (a < 7.450580596923828e-09) /* 2^-27 */
            return x;
        reduced = 0;
    } else if (a < 0.6875) {
        a = (2.0 * a - 1.0) / (2.0 + a), hi = hi0, lo = lo0;
    } else if (a < 1.1875) {
        a = (a - 1.0) / (a + 1.0), hi = hi1, lo = lo1;
    } else if (a < 2.4375) {
        a = (a - 1.5) / (1.0 + 1.5 * a), hi = hi2, lo = lo2;
    } else {
        a = -1.0 / a, hi = hi3, lo = lo3;
    }
    double z = a * a, w = z * z;
    double s1 = z * (t0 + w * (t2 + w * (t4 + w * (t6 + w * (t8 + w * t10)))));
    double s2 = w * (t1 + w * (t3 + w * (t5 + w * (t7 + w * t9))));
    double r = reduced ? hi - ((a * (s1 + s2) - lo) - a) : a - a * (s1 + s2);
    return x < 0.0 ? -r : r;
}

GPK_HELPER double gpk_rng_acos(double w)
{
    return 2.0 * gpk_rng_atan(gpk_rng_sqrt((1.0 - w) / (1.0 + w)));
}

/* log Gamma(x) for x >= 1 (the samplers' arguments, counts + 1): Stirling's
 * series with ten terms B_2k / (2k (2k - 1) x^(2k-1)) at x + n >= 7, less
 * the logs of x, x + 1, ..., x + n - 1. */
GPK_HELPER double gpk_rng_lgamma(double x)
{
    const double b1 = 1.0 / 12.0, b2 = -1.0 / 360.0, b3 = 1.0 / 1260.0, b4 = -1.0 / 1680.0,
                 b5 = 1.0 / 1188.0, b6 = -691.0 / 360360.0, b7 = 1.0 / 156.0,
                 b8 = -3617.0 / 122400.0, b9 = 43867.0 / 244188.0, b10 = -174611.0 / 125400.0;
    const double half_log_2pi = 9.18938533204672741780e-01;
    if (x == 1.0 || x == 2.0)
        return 0.0;
    double y = x, prod = 1.0;
    while (y < 7.0) {
        prod *= y;
        y += 1.0;
    }
    double r = 1.0 / (y * y);
    double series = b1 + r * (b2 + r * (b3 + r * (b4 + r * (b5 + r * (b6 + r * (b7 + r *
                    (b8 + r * (b9 + r * b10))))))));
    double lg = series / y + half_log_2pi + (y - 0.5) * gpk_rng_log(y) - y;
    return prod == 1.0 ? lg : lg - gpk_rng_log(prod);
}

/* ---- continuous distributions --------------------------------------------- */

GPK_HELPER double gpk_rng_std_exp(gpk_rng *s) { return 0.0 - gpk_rng_log(gpk_rng_next_open0(s)); }

/* Box-Muller of two uniforms (as GP_RANDOM_NORMAL: r cos first, r sin
 * kept for the next call). */
GPK_HELPER double gpk_rng_std_normal(gpk_rng *s)
{
    if (s->has_spare) {
        s->has_spare = 0;
        return s->spare;
    }
    double r = gpk_rng_sqrt(2.0 * (0.0 - gpk_rng_log(gpk_rng_next_open0(s))));
    gpk_f64x2 sc = gpk_rng_sincos2pi(gpk_rng_next_double(s));
    s->has_spare = 1;
    s->spare = r * sc.v[0];
    return r * sc.v[1];
}

/* Marsaglia and Tsang's gamma for shape a >= 1 (ACM TOMS 26, 2000):
 * d (1 + c z)^3, z normal, accepted by the squeeze or by the log test. */
GPK_HELPER double gpk_rng_gamma_mt(gpk_rng *s, double a)
{
    double d = a - 1.0 / 3.0, c = 1.0 / gpk_rng_sqrt(9.0 * d);
    for (;;) {
        double z, v;
        do {
            z = gpk_rng_std_normal(s);
            v = 1.0 + c * z;
        } while (v <= 0.0);
        v = v * v * v;
        double u = gpk_rng_next_open0(s), z2 = z * z;
        if (u < 1.0 - 0.0331 * (z2 * z2))
            return d * v;
        if (gpk_rng_log(u) < 0.5 * z2 + d * (1.0 - v + gpk_rng_logx(v)))
            return d * v;
    }
}

/* Gamma of shape a (scale 1): a < 1 by the boost G(a + 1) u^(1/a); NaN for
 * a NaN shape, 0 for shape 0. */
GPK_HELPER double gpk_rng_std_gamma(gpk_rng *s, double a)
{
    if (a != a)
        return a;
    if (a == 1.0)
        return gpk_rng_std_exp(s);
    if (a <= 0.0)
        return 0.0;
    if (a < 1.0) {
        double g = gpk_rng_gamma_mt(s, a + 1.0);
        return g * gpk_rng_exp(gpk_rng_log(gpk_rng_next_open0(s)) / a);
    }
    return gpk_rng_gamma_mt(s, a);
}

/* Beta(a, b): Johnk's algorithm when both are at most 1 (in logs where
 * the powers underflow), else G(a) / (G(a) + G(b)). */
GPK_HELPER double gpk_rng_beta(gpk_rng *s, double a, double b)
{
    if (a != a || b != b)
        return a + b;
    if (a <= 1.0 && b <= 1.0) {
        for (;;) {
            double u = gpk_rng_next_open0(s), v = gpk_rng_next_open0(s);
            double x = gpk_rng_pow(u, 1.0 / a), y = gpk_rng_pow(v, 1.0 / b), xy = x + y;
            if (xy <= 1.0) {
                if (xy > 0.0)
                    return x / xy;
                double lx = gpk_rng_log(u) / a, ly = gpk_rng_log(v) / b;
                double lm = lx > ly ? lx : ly;
                lx -= lm, ly -= lm;
                return gpk_rng_exp(lx - gpk_rng_logx(gpk_rng_exp(lx) + gpk_rng_exp(ly)));
            }
        }
    }
    double x = gpk_rng_std_gamma(s, a), y = gpk_rng_std_gamma(s, b);
    return x / (x + y);
}

GPK_HELPER double gpk_rng_chisquare(gpk_rng *s, double df) { return 2.0 * gpk_rng_std_gamma(s, df / 2.0); }

GPK_HELPER double gpk_rng_standard_t(gpk_rng *s, double df)
{
    double z = gpk_rng_std_normal(s), g = gpk_rng_std_gamma(s, df / 2.0);
    return gpk_rng_sqrt(df / 2.0) * z / gpk_rng_sqrt(g);
}

GPK_HELPER double gpk_rng_cauchy(gpk_rng *s)
{
    double a = gpk_rng_std_normal(s);
    return a / gpk_rng_std_normal(s);
}

GPK_HELPER double gpk_rng_laplace(gpk_rng *s, double loc, double scale)
{
    for (;;) {
        double u = gpk_rng_next_double(s);
        if (u >= 0.5)
            return loc - scale * gpk_rng_log(2.0 - (u + u));
        if (u > 0.0)
            return loc + scale * gpk_rng_log(u + u);
    }
}

GPK_HELPER double gpk_rng_logistic(gpk_rng *s, double loc, double scale)
{
    for (;;) {
        double u = gpk_rng_next_double(s);
        if (u > 0.0)
            return loc + scale * gpk_rng_log(u / (1.0 - u));
    }
}

GPK_HELPER double gpk_rng_gumbel(gpk_rng *s, double loc, double scale)
{
    for (;;) {
        double u = 1.0 - gpk_rng_next_double(s);
        if (u < 1.0)
            return loc - scale * gpk_rng_log(0.0 - gpk_rng_log(u));
    }
}

GPK_HELPER double gpk_rng_weibull(gpk_rng *s, double a)
{
    if (a == 0.0)
        return 0.0;
    return gpk_rng_pow(gpk_rng_std_exp(s), 1.0 / a);
}

GPK_HELPER double gpk_rng_pareto(gpk_rng *s, double a) { return gpk_rng_expm1(gpk_rng_std_exp(s) / a); }

GPK_HELPER double gpk_rng_power(gpk_rng *s, double a)
{
    return gpk_rng_pow(0.0 - gpk_rng_expm1(0.0 - gpk_rng_std_exp(s)), 1.0 / a);
}

GPK_HELPER double gpk_rng_rayleigh(gpk_rng *s, double scale)
{
    return scale * gpk_rng_sqrt(2.0 * gpk_rng_std_exp(s));
}

GPK_HELPER double gpk_rng_lognormal(gpk_rng *s, double mean, double sigma)
{
    return gpk_rng_exp(mean + sigma * gpk_rng_std_normal(s));
}

/* Wald (inverse Gaussian): Michael, Schucany and Haas's transformation of
 * a chi-square(1), a uniform choosing between its two roots. */
GPK_HELPER double gpk_rng_wald(gpk_rng *s, double mean, double scale)
{
    double mu_2l = mean / (2.0 * scale), y = gpk_rng_std_normal(s);
    y = mean * y * y;
    double x = mean + mu_2l * (y - gpk_rng_sqrt(4.0 * scale * y + y * y));
    double u = gpk_rng_next_double(s);
    return u <= mean / (mean + x) ? x : mean * mean / x;
}

GPK_HELPER double gpk_rng_triangular(gpk_rng *s, double left, double mode, double right)
{
    double base = right - left, lbase = mode - left, ratio = lbase / base;
    double u = gpk_rng_next_double(s);
    if (u <= ratio)
        return left + gpk_rng_sqrt(u * (lbase * base));
    return right - gpk_rng_sqrt((1.0 - u) * ((right - mode) * base));
}

/* von Mises (Best and Fisher, 1979); a wrapped normal for kappa > 1e6,
 * the uniform angle for kappa < 1e-8; the result in [-pi, pi]. */
GPK_HELPER double gpk_rng_vonmises(gpk_rng *s, double mu, double kappa)
{
    const double pi = 3.14159265358979323846;
    if (mu != mu || kappa != kappa)
        return mu + kappa;
    if (kappa < 1e-8)
        return pi * (2.0 * gpk_rng_next_double(s) - 1.0);
    double r;
    if (kappa > 1e6) {
        r = mu + gpk_rng_sqrt(1.0 / kappa) * gpk_rng_std_normal(s);
    } else {
        double rho, sv;
        if (kappa < 1e-5) {
            sv = 1.0 / kappa + kappa;
        } else {
            double t = 1.0 + gpk_rng_sqrt(1.0 + 4.0 * kappa * kappa);
            rho = (t - gpk_rng_sqrt(2.0 * t)) / (2.0 * kappa);
            sv = (1.0 + rho * rho) / (2.0 * rho);
        }
        double w;
        for (;;) {
            double u = gpk_rng_next_double(s);
            double z = gpk_rng_sincos2pi(0.5 * u).v[1]; /* cos(pi u) */
            w = (1.0 + sv * z) / (sv + z);
            double y = kappa * (sv - w), v = gpk_rng_next_double(s);
            if (y * (2.0 - y) - v >= 0.0 || gpk_rng_logx(y / v) + 1.0 - y >= 0.0)
                break;
        }
        r = gpk_rng_acos(w > 1.0 ? 1.0 : w < -1.0 ? -1.0 : w);
        if (gpk_rng_next_double(s) < 0.5)
            r = -r;
        r += mu;
    }
    int neg = r < 0.0;
    double m = fmod(fabs(r) + pi, 2.0 * pi) - pi;
    return neg ? -m : m;
}

/* ---- discrete distributions (values as doubles; integral) ------------------- */

/* Poisson: inversion by products of uniforms for lam < 10, else Hormann's
 * PTRS (transformed rejection with squeeze, 1993). */
GPK_HELPER double gpk_rng_poisson(gpk_rng *s, double lam)
{
    if (!(lam > 0.0))
        return 0.0;
    if (lam < 10.0) {
        double enlam = gpk_rng_exp(0.0 - lam), prod = 1.0, x = 0.0;
        for (;;) {
            prod *= gpk_rng_next_double(s);
            if (prod <= enlam)
                return x;
            x += 1.0;
        }
    }
    double slam = gpk_rng_sqrt(lam), loglam = gpk_rng_log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
    double log_invalpha = gpk_rng_log(invalpha);
    for (;;) {
        double u = gpk_rng_next_double(s) - 0.5, v = gpk_rng_next_double(s);
        double us = 0.5 - fabs(u);
        double k = floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr)
            return k;
        if (k < 0.0 || (us < 0.013 && v > us))
            continue;
        if (gpk_rng_logx(v) + log_invalpha - gpk_rng_logx(a / (us * us) + b) <=
            (0.0 - lam) + k * loglam - gpk_rng_lgamma(k + 1.0))
            return k;
    }
}

/* Noncentral chi-square: a central one of df - 1 plus a normal of mean
 * sqrt(nonc) squared; for df <= 1 a Poisson mixture of central ones. */
GPK_HELPER double gpk_rng_noncentral_chisquare(gpk_rng *s, double df, double nonc)
{
    if (nonc != nonc || df != df)
        return nonc + df;
    if (nonc == 0.0)
        return gpk_rng_chisquare(s, df);
    if (df > 1.0) {
        double c = gpk_rng_chisquare(s, df - 1.0);
        double z = gpk_rng_std_normal(s) + gpk_rng_sqrt(nonc);
        return c + z * z;
    }
    double i = gpk_rng_poisson(s, nonc / 2.0);
    return gpk_rng_chisquare(s, df + 2.0 * i);
}

GPK_HELPER double gpk_rng_f(gpk_rng *s, double dfnum, double dfden)
{
    double num = gpk_rng_chisquare(s, dfnum) * dfden, den = gpk_rng_chisquare(s, dfden) * dfnum;
    return num / den;
}

GPK_HELPER double gpk_rng_noncentral_f(gpk_rng *s, double dfnum, double dfden, double nonc)
{
    double t = gpk_rng_noncentral_chisquare(s, dfnum, nonc) * dfden;
    return t / (gpk_rng_chisquare(s, dfden) * dfnum);
}

/* Binomial(n, p) for p <= 1/2: inversion for n p <= 30, else Hormann's
 * BTRS (transformed rejection, 1993); p > 1/2 as n - Binomial(n, 1 - p). */
GPK_HELPER double gpk_rng_binomial_lo(gpk_rng *s, double n, double p)
{
    double q = 1.0 - p, np = n * p;
    if (np <= 30.0) {
        double qn = gpk_rng_exp(n * gpk_rng_log1p(0.0 - p));
        double bound = np + 10.0 * gpk_rng_sqrt(np * q + 1.0);
        bound = bound < n ? bound : n;
        double x = 0.0, px = qn, u = gpk_rng_next_double(s);
        while (u > px) {
            x += 1.0;
            if (x > bound) {
                x = 0.0, px = qn, u = gpk_rng_next_double(s);
            } else {
                u -= px;
                px = ((n - x + 1.0) * p * px) / (x * q);
            }
        }
        return x;
    }
    double spq = gpk_rng_sqrt(np * q), b = 1.15 + 2.53 * spq;
    double a = -0.0873 + 0.0248 * b + 0.01 * p, c = np + 0.5, vr = 0.92 - 4.2 / b;
    double alpha = (2.83 + 5.1 / b) * spq, lpq = gpk_rng_log(p / q);
    double m = floor((n + 1.0) * p);
    double h = gpk_rng_lgamma(m + 1.0) + gpk_rng_lgamma(n - m + 1.0);
    for (;;) {
        double u = gpk_rng_next_double(s) - 0.5, v = gpk_rng_next_double(s);
        double us = 0.5 - fabs(u), k = floor((2.0 * a / us + b) * u + c);
        if (k < 0.0 || k > n)
            continue;
        if (us >= 0.07 && v <= vr)
            return k;
        v = gpk_rng_logx(v * alpha / (a / (us * us) + b));
        if (v <= h - gpk_rng_lgamma(k + 1.0) - gpk_rng_lgamma(n - k + 1.0) + (k - m) * lpq)
            return k;
    }
}

GPK_HELPER double gpk_rng_binomial(gpk_rng *s, double n, double p)
{
    if (n == 0.0 || p == 0.0)
        return 0.0;
    if (p == 1.0)
        return n;
    if (p > 0.5)
        return n - gpk_rng_binomial_lo(s, n, 1.0 - p);
    return gpk_rng_binomial_lo(s, n, p);
}

GPK_HELPER double gpk_rng_geometric(gpk_rng *s, double p)
{
    if (p == 1.0)
        return 1.0;
    double x = ceil(gpk_rng_log(gpk_rng_next_open0(s)) / gpk_rng_log1p(0.0 - p));
    return x < 1.0 ? 1.0 : x;
}

GPK_HELPER double gpk_rng_negative_binomial(gpk_rng *s, double n, double p)
{
    double y = gpk_rng_std_gamma(s, n) * ((1.0 - p) / p);
    return gpk_rng_poisson(s, y);
}

/* Hypergeometric: draws from the urn, one bounded integer each, for
 * samples below 10 (of the smaller of sample and its complement), else
 * Stadlober's ratio of uniforms (HRUA, 1989) on the mode's log-probability. */
GPK_HELPER double gpk_rng_hypergeometric(gpk_rng *s, double good, double bad, double sample)
{
    double total = good + bad;
    double m = sample < total - sample ? sample : total - sample;
    double x;
    if (m < 10.0) {
        double g = good, t = total;
        x = 0.0;
        for (double i = 0.0; i < m; i += 1.0) {
            if ((double)gpk_rng_next_bounded(s, (gpk_u64)t - 1u) < g)
                x += 1.0, g -= 1.0;
            t -= 1.0;
        }
    } else {
        const double d1 = 1.7155277699214135, d2 = 0.8989161620588988;
        double mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
        double p = mingb / total, q = maxgb / total, mu = m * p, a = mu + 0.5;
        double var = (total - m) * m * p * q / (total - 1.0);
        double c = gpk_rng_sqrt(var + 0.5), h = d1 * c + d2;
        double mode = floor((m + 1.0) * (mingb + 1.0) / (total + 2.0));
        double g = gpk_rng_lgamma(mode + 1.0) + gpk_rng_lgamma(mingb - mode + 1.0) +
                   gpk_rng_lgamma(m - mode + 1.0) + gpk_rng_lgamma(maxgb - m + mode + 1.0);
        double bound = (m < mingb ? m : mingb) + 1.0, b16 = floor(a + 16.0 * c);
        bound = bound < b16 ? bound : b16;
        for (;;) {
            double u = gpk_rng_next_double(s), v = gpk_rng_next_double(s);
            if (u == 0.0)
                continue;
            double xx = a + h * (v - 0.5) / u;
            if (xx < 0.0 || xx >= bound)
                continue;
            double k = floor(xx);
            double t = g - (gpk_rng_lgamma(k + 1.0) + gpk_rng_lgamma(mingb - k + 1.0) +
                            gpk_rng_lgamma(m - k + 1.0) + gpk_rng_lgamma(maxgb - m + k + 1.0));
            if (u * (4.0 - u) - 3.0 <= t) {
                x = k;
                break;
            }
            if (u * (u - t) >= 1.0)
                continue;
            if (2.0 * gpk_rng_log(u) <= t) {
                x = k;
                break;
            }
        }
        if (good > bad)
            x = m - x;
    }
    return m < sample ? good - x : x;
}

/* Logarithmic series (Kemp's second accelerated generator, 1981). */
GPK_HELPER double gpk_rng_logseries(gpk_rng *s, double p)
{
    double r = gpk_rng_log1p(0.0 - p);
    for (;;) {
        double v = gpk_rng_next_double(s);
        if (v >= p)
            return 1.0;
        double u = gpk_rng_next_double(s), q = 0.0 - gpk_rng_expm1(r * u);
        if (v <= q * q) {
            double x = floor(1.0 + gpk_rng_logx(v) / gpk_rng_logx(q));
            if (x < 1.0 || v == 0.0)
                continue;
            return x;
        }
        return v >= q ? 1.0 : 2.0;
    }
}

/* Zipf (Devroye's rejection from the Pareto, as NumPy); 1 where a is so
 * large that 2^(a - 1) overflows (every other value is below 2^-1024). */
GPK_HELPER double gpk_rng_zipf(gpk_rng *s, double a)
{
    double am1 = a - 1.0;
    if (am1 >= 1024.0)
        return 1.0;
    double b = gpk_rng_exp(am1 * 6.93147180559945309417e-01);
    for (;;) {
        double u = 1.0 - gpk_rng_next_double(s), v = gpk_rng_next_double(s);
        double x = floor(gpk_rng_pow(u, -1.0 / am1));
        if (x > 9.223372036854775807e18 || x < 1.0)
            continue;
        double t = gpk_rng_exp(am1 * gpk_rng_log1p(1.0 / x));
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b)
            return x;
    }
}

/* ---- distributions of rows of k values ----------------------------------- */

/* Dirichlet(alpha): k gammas over their sum, or, when every alpha is below
 * 0.1 (where the gammas underflow to 0), breaking the stick with betas. */
GPK_HELPER void gpk_rng_dirichlet_row(gpk_rng *s, const double *alpha, gpk_index k, double *out)
{
    double amax = 0.0, asum = 0.0;
    for (gpk_index i = 0; i < k; ++i) {
        amax = alpha[i] > amax ? alpha[i] : amax;
        asum += alpha[i];
    }
    if (k > 0 && amax < 0.1) {
        double rest = 1.0;
        for (gpk_index i = 0; i + 1 < k; ++i) {
            asum -= alpha[i];
            double v = asum > 0.0 ? gpk_rng_beta(s, alpha[i], asum) : 1.0;
            out[i] = rest * v;
            rest *= 1.0 - v;
        }
        out[k - 1] = rest;
        return;
    }
    double sum = 0.0;
    for (gpk_index i = 0; i < k; ++i) {
        out[i] = gpk_rng_std_gamma(s, alpha[i]);
        sum += out[i];
    }
    for (gpk_index i = 0; i < k; ++i)
        out[i] /= sum;
}

/* Multinomial(n, pvals): a binomial per category of what remains. */
GPK_HELPER void gpk_rng_multinomial_row(gpk_rng *s, gpk_i64 n, const double *pvals, gpk_index k,
                                    gpk_i64 *out)
{
    double rest_p = 1.0;
    gpk_i64 rest = n;
    for (gpk_index i = 0; i + 1 < k; ++i) {
        gpk_i64 x = 0;
        if (rest > 0 && rest_p > 0.0) {
            double p = pvals[i] / rest_p;
            x = (gpk_i64)gpk_rng_binomial(s, (double)rest, p < 1.0 ? (p > 0.0 ? p : 0.0) : 1.0);
        }
        out[i] = x;
        rest -= x;
        rest_p -= pvals[i];
    }
    if (k > 0)
        out[k - 1] = rest;
}

/* Multivariate hypergeometric: a hypergeometric per color of what remains
 * (NumPy's "marginals"). */
GPK_HELPER void gpk_rng_mvhypergeometric_row(gpk_rng *s, gpk_i64 nsample, const double *colors,
                                         gpk_index k, gpk_i64 *out)
{
    double total = 0.0, rest = (double)nsample;
    for (gpk_index i = 0; i < k; ++i)
        total += colors[i];
    for (gpk_index i = 0; i < k; ++i) {
        double x = 0.0;
        total -= colors[i];
        if (rest > 0.0)
            x = i + 1 < k ? gpk_rng_hypergeometric(s, colors[i], total, rest) : rest;
        out[i] = (gpk_i64)x;
        rest -= x;
    }
}

/* A count as int64: NumPy's INT64_MAX for the geometric's values past it. */
GPK_HELPER gpk_i64 gpk_rng_count(double x)
{
    return x >= 9223372036854775807.0 ? 9223372036854775807LL : (gpk_i64)x;
}
