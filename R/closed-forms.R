# Closed-form acquisition functions (src/acq.c).

# The acquisition types, one row each: the one table that drives
# acq_closed_form(), acq_spec(), new_acq_spec(), acq_pack() and the check
# of the documentation (test-acq.R), mirrored in C by the one switch
# acq_value() of src/acq.c.
#   code      the CB_ACQ_* code of src/acq.h (EI-PU is EI-PU-CC with nu = 1)
#   best      uses the best value observed (the incumbent)
#   cost      cost-aware: needs a cost model or a known cost
#   setting   the type's own setting, which the caller gives (NA: none)
#   nu        the cost-cooling exponent the type fixes (NA: none)
#   log       the natural logarithm of the acquisition
#   gradient  closed-form derivatives in the posterior moments, hence
#             gradients in x (acq_evaluate(grad = TRUE), acq_maximize())
acq_table <- data.frame(
  type = c("ei", "log_ei", "ucb", "q1", "log_q1", "ei_pu", "log_ei_pu",
           "ei_pu_cc", "log_ei_pu_cc", "pbgi"),
  code = c(1L, 2L, 3L, 4L, 5L, 6L, 7L, 6L, 7L, 8L),
  best = c(TRUE, TRUE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, FALSE),
  cost = c(FALSE, FALSE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE),
  setting = c(NA, NA, "beta", "remaining", "remaining", NA, NA, "nu", "nu",
              "lambda"),
  nu = c(NA, NA, NA, NA, NA, 1, 1, NA, NA, NA),
  log = c(FALSE, TRUE, FALSE, FALSE, TRUE, FALSE, TRUE, FALSE, TRUE, FALSE),
  gradient = TRUE,
  stringsAsFactors = FALSE
)

acq_types <- acq_table$type
acq_codes <- stats::setNames(acq_table$code, acq_table$type)

# One row of acq_table as a list (`type` must be one of acq_types).
acq_type <- function(type) {
  i <- match(type, acq_table$type)
  lapply(acq_table, `[[`, i)
}

# The closed form of a type at posterior moments, without checks: the
# worker of acq_closed_form() and of the R path of acq_evaluate().
# `settings` holds best, remaining, nu, lambda and beta (a NULL element is
# not used by the type); every vector is recycled to length(mean). Give the
# known `cost`, or `log_cost_mean` and `log_cost_sd`, for a cost-aware type.
acq_closed_worker <- function(type, mean, sd, settings, cost = NULL,
                              log_cost_mean = NULL, log_cost_sd = NULL,
                              grad = FALSE) {
  n <- length(mean)
  v <- function(x) if (is.null(x)) double(n) else rep_len(as.double(x), n)
  call_c(C_acq_closed_form, acq_codes[[type]], v(mean), v(sd),
         v(settings[["best"]]), v(cost), v(log_cost_mean), v(log_cost_sd),
         v(settings[["remaining"]]), v(settings[["nu"]]),
         v(settings[["lambda"]]), v(settings[["beta"]]), !is.null(cost),
         grad)
}

#' Closed-form acquisition functions
#'
#' Evaluates the scalar acquisition functions of cost-aware Bayesian
#' optimization from the posterior moments at a set of points, optionally with
#' their partial derivatives in those moments. All acquisitions are for
#' **maximization**.
#'
#' Let \eqn{m, s} be the posterior mean and standard deviation of the objective
#' \eqn{f} at a point, \eqn{f^*} the best value observed (`best`),
#' \eqn{u = (m - f^*)/s}, \eqn{h(u) = u\Phi(u) + \phi(u)}, and, for an unknown
#' cost modelled by an independent Gaussian process on \eqn{\log c},
#' \eqn{m_c, s_c} the posterior mean and standard deviation of \eqn{\log c}
#' at the point (`log_cost_mean`, `log_cost_sd`). A known cost is given as
#' `cost`.
#'
#' * `"ei"`: expected improvement \eqn{\mathrm{EI} = E[(f - f^*)^+] = s\,h(u)};
#'   \eqn{(m - f^*)^+} when \eqn{s = 0}. `"log_ei"` is its natural logarithm.
#' * `"ucb"`: upper confidence bound \eqn{m + \beta s}.
#' * `"q1"`: budgeted one-step expected improvement
#'   \eqn{E[(f - f^*)^+ 1\{c \le R\}]} with \eqn{R} the remaining budget
#'   (`remaining`): \eqn{\mathrm{EI}\,\Phi((\log R - m_c)/s_c)} for an
#'   unknown cost (0 when \eqn{R \le 0}), \eqn{\mathrm{EI}\,1\{c \le R\}} for
#'   a known cost (Astudillo et al. 2021, Prop. 1).
#' * `"ei_pu_cc"`: expected improvement per unit cost with cost cooling,
#'   \eqn{E[(f - f^*)^+ / c^\nu] = \mathrm{EI}\exp(-\nu m_c + \nu^2 s_c^2/2)}
#'   for an unknown cost, \eqn{\mathrm{EI}/c^\nu} for a known cost, where
#'   \eqn{\nu} (`nu`) is the remaining budget divided by the budget at the
#'   start (Astudillo et al. 2021, Prop. 2). `"ei_pu"` is the case
#'   \eqn{\nu = 1}.
#' * `"pbgi"`: the Pandora's Box Gittins index, the \eqn{g} solving
#'   \eqn{s\,h((m - g)/s) = \lambda c} (Xie et al. 2024, eq. 6), with
#'   \eqn{c} replaced by \eqn{E[c] = \exp(m_c + s_c^2/2)} for an unknown cost
#'   (PBGI-U, eq. 20); \eqn{g = m - \lambda c} when \eqn{s = 0}.
#'
#' The `log_` variants return logarithms. Every value is computed from
#' \eqn{\log \mathrm{EI}}, which is accurate to a few units in the last place
#' for every finite input, so EI itself is accurate to about 1e-13 relative
#' even at \eqn{u = -40}: far in the lower tail EI is tiny but never rounded
#' to 0 or inflated by cancellation, and the products with the cost factors
#' keep that accuracy. The index \eqn{g = m - s t} is found by a safeguarded
#' Halley iteration for \eqn{h(t) = \lambda c / s} (on \eqn{\log h} for
#' \eqn{t < 0}) from starting points within about 1e-4 of the root, so one
#' or two evaluations of \eqn{h} (one `erfc` and one `exp` each) reach full
#' double precision (a few units in the last place of \eqn{\max(|t|, 1)})
#' for \eqn{\lambda c / s} anywhere in the double range; one PBGI value
#' costs about as much as one EI value.
#'
#' The partial derivatives (`grad = TRUE`) are taken in the posterior moments
#' with all other arguments held fixed, so that they can be chained with the
#' gradients of the moments in \eqn{x}. For PBGI they follow Xie et al. 2024,
#' Prop. 3: \eqn{\partial g/\partial m = 1},
#' \eqn{\partial g/\partial s = \phi(t)/\Phi(t)} and
#' \eqn{\partial g/\partial c = -\lambda/\Phi(t)}, with \eqn{t = (m - g)/s}.
#' At \eqn{s = 0} the limits from \eqn{s > 0} are returned; where a log value
#' is `-Inf` its derivatives are 0. The known-cost indicator of `"q1"` is
#' flat, so its `d_cost` is 0.
#'
#' Over the whole double range, values are exact wherever they are
#' representable: where \eqn{m - f^*} (or \eqn{m + \beta s}, or \eqn{s t})
#' overflows while the result does not, it is formed from halves, and far
#' in the lower tail (\eqn{u < -10^5}) the derivatives of log EI come from
#' the continued fraction of Mills' ratio. A point whose value, or with
#' `grad = TRUE` one of its derivatives, is itself beyond the double range
#' (an EI above 1.8e308, a log EI below -1.8e308, a derivative of log EI
#' at a subnormal `sd`) is refused with an error naming the arguments and
#' the first such point. A log value is `-Inf` only where the acquisition
#' is exactly 0 (`sd` = 0 with `mean` <= `best`, or for `"log_q1"` a
#' remaining budget that cannot pay: `remaining` <= 0, a known `cost`
#' above it, or a `log_cost_sd` of 0 with `log_cost_mean` above its log).
#'
#' @param type The acquisition: one of `"ei"`, `"log_ei"`, `"ucb"`, `"q1"`,
#'   `"log_q1"`, `"ei_pu"`, `"log_ei_pu"`, `"ei_pu_cc"`, `"log_ei_pu_cc"`,
#'   `"pbgi"`.
#' @param mean Posterior mean of the objective at each point.
#' @param sd Posterior standard deviation of the objective (>= 0).
#' @param best Best objective value observed so far; not used by `"ucb"` and
#'   `"pbgi"`.
#' @param cost Known evaluation cost (> 0) at each point. Give either `cost`
#'   or both `log_cost_mean` and `log_cost_sd` for the cost-aware types.
#' @param log_cost_mean,log_cost_sd Posterior mean and standard deviation
#'   (>= 0) of the log cost, for an unknown cost.
#' @param remaining Remaining budget \eqn{R} for `"q1"`; a value <= 0 gives 0.
#' @param nu Cost-cooling exponent in \[0, 1\] for `"ei_pu_cc"`.
#' @param lambda Cost multiplier \eqn{\lambda > 0} for `"pbgi"`.
#' @param beta Exploration weight \eqn{\beta \ge 0} for `"ucb"`.
#' @param grad If `TRUE`, also return the partial derivatives.
#'
#' @return With `grad = FALSE`, a numeric vector of the acquisition values,
#'   one per point (the numeric arguments have one value per point, or one
#'   for all; other lengths are refused naming both arguments).
#'   With `grad = TRUE`, a data frame with column `value` and the partial
#'   derivatives `d_mean`, `d_sd` and, for the cost-aware types, either
#'   `d_log_cost_mean` and `d_log_cost_sd` (unknown cost) or `d_cost` (known
#'   cost).
#'
#' @references
#' Astudillo, R., Jiang, D., Balandat, M., Bakshy, E. and Frazier, P. (2021).
#' Multi-step budgeted Bayesian optimization with unknown evaluation costs.
#' *NeurIPS*.
#'
#' Xie, Q., Astudillo, R., Frazier, P., Scully, Z. and Terenin, A. (2024).
#' Cost-aware Bayesian optimization via the Pandora's Box Gittins index.
#' *NeurIPS*.
#'
#' @family acquisition
#' @export
#' @examples
#' m <- c(-1, 0, 0.5)
#' s <- c(0.2, 1, 0.1)
#' acq_closed_form("ei", m, s, best = 0.4)
#' acq_closed_form("log_ei", -40, 1, best = 0) # EI itself is about 1e-351
#' acq_closed_form("q1", m, s, best = 0.4, log_cost_mean = 0,
#'                 log_cost_sd = 0.5, remaining = 2)
#' acq_closed_form("ei_pu_cc", m, s, best = 0.4, cost = c(1, 5, 2), nu = 0.5)
#' acq_closed_form("pbgi", m, s, cost = c(1, 5, 2), lambda = 0.01,
#'                 grad = TRUE)
acq_closed_form <- function(type, mean, sd, best, cost = NULL,
                            log_cost_mean = NULL, log_cost_sd = NULL,
                            remaining = NULL, nu = NULL, lambda = NULL,
                            beta = NULL, grad = FALSE) {
  call <- sys.call()
  type <- check_choice(type, acq_types, call = call)
  grad <- check_flag(grad, call = call)
  if (missing(best)) best <- NULL

  info <- acq_type(type)
  uses_cost <- info$cost
  settings <- c("remaining", "nu", "lambda", "beta")
  needs <- c(list(best = info$best),
             stats::setNames(as.list(settings %in% info$setting), settings))
  given <- list(best = best, remaining = remaining, nu = nu, lambda = lambda,
                beta = beta)
  for (a in names(needs)) {
    if (needs[[a]] && is.null(given[[a]])) {
      stop_arg(a, sprintf("supplied for type \"%s\"", type), show = FALSE,
               call = call)
    }
    if (!needs[[a]] && !is.null(given[[a]])) {
      stop_arg(a, sprintf("NULL for type \"%s\", which does not use it",
                          type), given[[a]], call = call)
    }
  }

  known <- !is.null(cost)
  unknown <- !is.null(log_cost_mean) || !is.null(log_cost_sd)
  if (uses_cost) {
    if (known && unknown) {
      stop_arg("cost", paste("NULL when `log_cost_mean` and `log_cost_sd`",
                             "are given"), cost, call = call)
    }
    if (!known && !unknown) {
      stop_arg("cost", sprintf(paste("supplied (or `log_cost_mean` and",
                                     "`log_cost_sd`) for type \"%s\""), type),
               show = FALSE, call = call)
    }
    if (unknown && is.null(log_cost_mean)) {
      stop_arg("log_cost_mean", "supplied with `log_cost_sd`", show = FALSE,
               call = call)
    }
    if (unknown && is.null(log_cost_sd)) {
      stop_arg("log_cost_sd", "supplied with `log_cost_mean`", show = FALSE,
               call = call)
    }
  } else {
    for (a in c("cost", "log_cost_mean", "log_cost_sd")) {
      v <- get(a)
      if (!is.null(v)) {
        stop_arg(a, sprintf("NULL for type \"%s\", which does not use it",
                            type), v, call = call)
      }
    }
  }

  for (a in c("mean", "sd")) {
    if (is.null(get(a))) {
      stop_arg(a, "a numeric vector with finite values", NULL, call = call)
    }
  }
  args <- list(mean = mean, sd = sd, best = best, cost = cost,
               log_cost_mean = log_cost_mean, log_cost_sd = log_cost_sd,
               remaining = remaining, nu = nu, lambda = lambda, beta = beta)
  args <- args[!vapply(args, is.null, logical(1))]
  # lower bound, whether it is open, upper bound
  bounds <- list(
    mean = c(-Inf, 0, Inf), best = c(-Inf, 0, Inf),
    log_cost_mean = c(-Inf, 0, Inf), remaining = c(-Inf, 0, Inf),
    sd = c(0, 0, Inf), log_cost_sd = c(0, 0, Inf), beta = c(0, 0, Inf),
    cost = c(0, 1, Inf), lambda = c(0, 1, Inf), nu = c(0, 0, 1)
  )
  for (a in names(args)) {
    b <- bounds[[a]]
    args[[a]] <- check_acq_vector(args[[a]], NULL, min = b[1], max = b[3],
                                  min_open = b[2] == 1, arg = a, call = call)
  }
  # one value per point, or one for all: a mismatch names both vectors
  n <- check_same_length(lengths(args), one = TRUE, call = call)
  args <- lapply(args, rep_len, n)
  given <- args
  if (!is.na(info$nu)) args$nu <- info$nu
  res <- acq_closed_worker(type, args$mean, args$sd, args, cost = args$cost,
                           log_cost_mean = args$log_cost_mean,
                           log_cost_sd = args$log_cost_sd, grad = grad)
  check_acq_range(type, res, given, grad, call)
  if (!grad) return(res$value)
  cols <- c("value", "d_mean", "d_sd")
  if (uses_cost) {
    cols <- c(cols, if (known) "d_cost" else c("d_log_cost_mean",
                                                "d_log_cost_sd"))
  }
  as.data.frame(res[cols])
}

# Refuse moments and settings whose acquisition (or, with grad, one of its
# partial derivatives) is beyond the double range: a value or derivative
# that is not finite, except the -Inf of a log type where the acquisition
# is exactly 0 (sd = 0 with mean <= best; for Q1 a remaining budget that
# cannot pay: remaining <= 0, a known cost above it, or a log cost of sd 0
# above its log). `given` holds the checked arguments, recycled.
check_acq_range <- function(type, res, given, grad, call) {
  info <- acq_type(type)
  v <- res$value
  n <- length(v)
  zero <- rep(FALSE, n)
  if (info$best) zero <- given$sd == 0 & given$mean <= given$best
  if (info$setting %in% "remaining") {
    R <- given$remaining
    zero <- zero | R <= 0 | if (!is.null(given$cost)) given$cost > R else
      given$log_cost_sd == 0 & given$log_cost_mean > log(pmax(R, 0))
  }
  bad <- !is.finite(v) & !(info$log & v == -Inf & zero)
  if (grad) {
    parts <- res[c("d_mean", "d_sd", "d_log_cost_mean", "d_log_cost_sd",
                   "d_cost")]
    for (p in parts) bad <- bad | !is.finite(p)
  }
  if (!any(bad)) return(invisible())
  i <- which(bad)[1L]
  at <- paste(sprintf("%s = %s", names(given),
                      vapply(given, function(x) format(x[i], digits = 4),
                             "")), collapse = ", ")
  stop_args(names(given), sprintf(paste(
    "keep \"%s\" and its derivatives within the double range: at point %d",
    "(%s) %s"), type, i, at,
    if (is.finite(v[i]) || (info$log && v[i] == -Inf && zero[i])) {
      "a derivative is beyond it"
    } else sprintf("the value is %s, beyond it", format(v[i]))),
    call = call)
}

#' Pandora's Box stopping rule
#'
#' The stopping rule of the Pandora's Box Gittins index policy (Xie et al.
#' 2024, Sec. 3): stop when the best value observed so far is at least the
#' largest Gittins index among the points that could still be evaluated. The
#' cost-per-sample setting stops the optimization there; PBGI-D instead
#' divides \eqn{\lambda} by its decay factor and continues.
#'
#' @param best Best objective value observed so far.
#' @param g Gittins indices, for example from
#'   `acq_closed_form("pbgi", ...)` at the candidate points or the maximum
#'   found by an optimizer. An empty vector means nothing is left to open;
#'   `Inf` and `-Inf` compare as usual (not `NA`).
#'
#' @return `TRUE` if the rule says stop, `FALSE` otherwise.
#'
#' @family acquisition
#' @export
#' @examples
#' g <- acq_closed_form("pbgi", c(0, 0.5), c(1, 0.1), cost = 1, lambda = 0.1)
#' acq_pandora_stop(best = 1, g)
#' acq_pandora_stop(best = 2, g)
acq_pandora_stop <- function(best, g) {
  best <- check_number(best)
  if (!(is.numeric(g) && is.null(dim(g)) && !anyNA(g))) {
    stop_arg("g", "a numeric vector without NA", g)
  }
  pandora_stop(best, g)
}

# The rule of acq_pandora_stop() without checks (policies).
pandora_stop <- function(best, g) length(g) == 0L || best >= max(g)

# Internal: t solving log h(t) = y with the number of Newton steps, and
# log h(u) itself (for tests of the C core).
acq_h_inv <- function(y) call_c(C_acq_h_inv, as.double(y))

acq_log_h <- function(u) call_c(C_acq_log_h, as.double(u))
