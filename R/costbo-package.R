#' costbo: cost-aware and budgeted Bayesian optimization
#'
#' Bayesian optimization (BO) of expensive black-box functions whose
#' evaluation cost varies across the search space, may be unknown until it is
#' paid, and must fit inside a total budget. Every problem is a
#' **maximization**; a minimization problem is negated where it is defined.
#'
#' The numerical core is written in C: an exact Gaussian process
#' ([gp_fit()]) with analytic likelihood gradients, O(n^2) fantasy updates
#' ([gp_condition()]) and random-Fourier-feature prior samples
#' ([gp_prior_sample()]).
#'
#' @keywords internal
#' @useDynLib costbo, .registration = TRUE
#' @importFrom stats coef logLik nobs predict simulate
"_PACKAGE"
