"""``gpunp.scipy.stats``: ``scipy.stats`` for gpunp arrays, name for name.

It holds descriptive statistics (moments, means, spreads, standard scores,
trimming, modes, ranks), correlations, binned statistics, a Gaussian kernel
density estimate, and distributions' functions, each over gpunp's
reductions and ``gpunp.scipy.special`` on the device.
"""

from gpunp.scipy.stats._binned import binned_statistic, binned_statistic_2d, binned_statistic_dd
from gpunp.scipy.stats._correlation import (linregress, pearsonr, spearmanr, ttest_1samp, ttest_ind,
                                            ttest_rel)
from gpunp.scipy.stats._distributions import (beta, binom, chi2, expon, gamma, norm, poisson, t,
                                              uniform)
from gpunp.scipy.stats._kde import gaussian_kde
from gpunp.scipy.stats._rank import rankdata
from gpunp.scipy.stats._stats_py import (boxcox_llf, cumfreq, describe, entropy, gmean, hmean,
                                         iqr, kurtosis, median_abs_deviation, mode, moment,
                                         percentileofscore, pmean, relfreq, sem, sigmaclip, skew,
                                         tmax, tmean, tmin, trim1, trim_mean, trimboth, tsem, tstd,
                                         tvar, variation, zmap, zscore)

__all__ = ["beta", "binom", "chi2", "expon", "gamma", "norm", "poisson", "t", "uniform",
           "linregress", "pearsonr", "spearmanr", "ttest_1samp", "ttest_ind", "ttest_rel",
           "binned_statistic", "binned_statistic_2d", "binned_statistic_dd", "gaussian_kde",
           "boxcox_llf", "cumfreq", "describe", "entropy", "gmean", "hmean", "iqr", "kurtosis",
           "median_abs_deviation", "mode", "moment", "percentileofscore", "pmean", "rankdata",
           "relfreq", "sem", "sigmaclip", "skew", "tmax", "tmean", "tmin", "trim1", "trim_mean",
           "trimboth", "tsem", "tstd", "tvar", "variation", "zmap", "zscore"]
