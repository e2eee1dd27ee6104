# Paired comparisons of policies over replications, and the verdicts of the
# studies' claims.

#' Paired comparison of two policies, with a verdict
#'
#' Compares `policy` with `baseline` replication by replication (the
#' replications of a [bo_benchmark()] share their random streams and initial
#' designs, so the differences are paired) and says whether the data show
#' `policy` to be better: the mean paired difference, its `level`
#' t-interval, and a verdict on the claim "`policy` is better than
#' `baseline`":
#' * `"reproduced"`: the interval excludes 0 on the side of the claim;
#' * `"refuted"`: it excludes 0 on the other side;
#' * `"inconclusive"`: it contains 0. `n_needed` is then the number of
#'   replications at which an interval of the same level would exclude 0 if
#'   the mean and the standard deviation of the differences stayed as
#'   observed, \eqn{\lceil (z\, s / \bar d)^2 \rceil} with \eqn{z} the normal
#'   quantile (`Inf` when the mean difference is 0).
#'
#' The difference is oriented so that a positive value favours `policy`:
#' `baseline - policy` for measures where lower is better (regret),
#' `policy - baseline` otherwise.
#'
#' @param x A [bo_benchmark()], or a data frame with columns `problem`,
#'   `policy`, `rep` and the numeric column named by `measure` (one row per
#'   replication, e.g. a per-replication score computed by a study).
#' @param policy,baseline Names of two policies in `x`.
#' @param measure For a benchmark, `"log10_regret"` (the default when the
#'   problems' optima are known), `"regret"` or `"best_value"`, read at cost
#'   `cost`; for a data frame, the name of its column to compare.
#' @param higher_is_better For a data frame, whether larger values of
#'   `measure` are better (required); for a benchmark it follows from
#'   `measure`.
#' @param cost For a benchmark, the cost at which to read the measure: a
#'   single number, or `NULL` (default) for each problem's budget.
#' @param level Confidence level of the intervals.
#' @return A data frame of class `bo_compare` with one row per problem in
#'   which both policies have paired replications: `problem`, `policy`,
#'   `baseline`, `measure`, `n` (pairs), `mean_policy`, `mean_baseline`,
#'   `difference` (mean paired difference, positive favours `policy`),
#'   `lower`, `upper`, `verdict` and `n_needed`. [format()] turns each row
#'   into a sentence.
#' @family benchmarks
#' @examples
#' probs <- list(branin = test_problem("branin", budget = 4))
#' pols <- list(EI = policy_ei(), UCB = policy_ucb())
#' bm <- bo_benchmark(probs, pols, reps = 3, n_init = 4, progress = FALSE)
#' cmp <- bo_compare(bm, "EI", "UCB", measure = "regret")
#' cmp
#' format(cmp)
#' # a per-replication score of a study
#' scores <- data.frame(problem = "p", policy = rep(c("a", "b"), each = 4),
#'                      rep = rep(1:4, 2), gap = c(0.9, 0.8, 0.95, 0.85,
#'                                                 0.7, 0.75, 0.8, 0.6))
#' bo_compare(scores, "a", "b", measure = "gap", higher_is_better = TRUE)
#' @export
bo_compare <- function(x, policy, baseline, measure = NULL,
                       higher_is_better = NULL, cost = NULL, level = 0.95) {
  policy <- check_string(policy)
  baseline <- check_string(baseline)
  level <- check_number(level, min = 0, max = 1, min_open = TRUE)
  if (inherits(x, "bo_benchmark")) {
    if (!is.null(cost)) cost <- check_number(cost, min = 0)
    df <- as.data.frame(x)
    known <- any(!is.na(df$regret))
    measure <- if (is.null(measure)) {
      if (known) "log10_regret" else "best_value"
    } else check_choice(measure, c("log10_regret", "regret", "best_value"))
    higher_is_better <- measure == "best_value"
    at <- if (is.null(cost)) {
      stats::ave(df$cost, df$problem, FUN = max)
    } else {
      # the grid cost at or just below `cost`
      stats::ave(df$cost, df$problem, FUN = function(g) {
        max(g[g <= cost * (1 + 1e-12)], min(g))
      })
    }
    df <- df[df$cost == at, c("problem", "policy", "rep", measure),
             drop = FALSE]
  } else if (is.data.frame(x)) {
    measure <- check_string(measure)
    need <- c("problem", "policy", "rep", measure)
    if (!all(need %in% names(x)) || !is.numeric(x[[measure]])) {
      stop_arg("x", sprintf("a data frame with columns %s (%s numeric)",
                            paste(need, collapse = ", "), measure), x,
               show = FALSE)
    }
    if (is.null(higher_is_better)) {
      stop_arg("higher_is_better", "TRUE or FALSE for a data frame `x`",
               higher_is_better)
    }
    higher_is_better <- check_flag(higher_is_better)
    df <- x[, need, drop = FALSE]
  } else {
    stop_arg("x", "a bo_benchmark or a data frame", x)
  }
  pols <- unique(df$policy)
  for (p in c(policy, baseline)) {
    if (!(p %in% pols)) {
      arg <- if (identical(p, policy)) "policy" else "baseline"
      stop_arg(arg, sprintf("one of the policies of `x` (%s)",
                            paste0("\"", pols, "\"", collapse = ", ")), p)
    }
  }
  z <- stats::qnorm(0.5 + level / 2)
  rows <- lapply(unique(df$problem), function(pb) {
    a <- df[df$problem == pb & df$policy == policy, , drop = FALSE]
    b <- df[df$problem == pb & df$policy == baseline, , drop = FALSE]
    m <- merge(a[, c("rep", measure)], b[, c("rep", measure)], by = "rep",
               suffixes = c(".p", ".b"))
    vp <- m[[paste0(measure, ".p")]]
    vb <- m[[paste0(measure, ".b")]]
    ok <- is.finite(vp) & is.finite(vb)
    vp <- vp[ok]
    vb <- vb[ok]
    if (!length(vp)) return(NULL)
    d <- if (higher_is_better) vp - vb else vb - vp
    ci <- mean_ci(d, level)
    verdict <- if (anyNA(ci[2:3])) "inconclusive" else if (ci[2L] > 0) {
      "reproduced"
    } else if (ci[3L] < 0) "refuted" else "inconclusive"
    n_needed <- if (verdict != "inconclusive") NA_real_ else
      if (length(d) > 1L && ci[1L] != 0) {
        max(length(d) + 1, ceiling((z * stats::sd(d) / ci[1L])^2))
      } else Inf
    data.frame(problem = pb, policy = policy, baseline = baseline,
               measure = measure, n = length(d), mean_policy = mean(vp),
               mean_baseline = mean(vb), difference = ci[1L],
               lower = ci[2L], upper = ci[3L], verdict = verdict,
               n_needed = n_needed, stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  if (is.null(out)) {
    stop_costbo(sprintf("`%s` and `%s` have no paired replications with finite values",
                        policy, baseline))
  }
  rownames(out) <- NULL
  attr(out, "level") <- level
  attr(out, "higher_is_better") <- higher_is_better
  class(out) <- c("bo_compare", "data.frame")
  out
}

#' @rdname bo_compare
#' @param digits Significant digits of the numbers in the sentences.
#' @param ... Unused.
#' @return `format()`: one sentence per row (a character vector).
#' @export
format.bo_compare <- function(x, digits = 2L, ...) {
  f <- function(v) format(signif(v, digits))
  lvl <- 100 * attr(x, "level")
  what <- paste(if (isTRUE(attr(x, "higher_is_better"))) "higher" else "lower",
                gsub("_", " ", x$measure))
  more <- ifelse(x$verdict != "inconclusive", "",
                 ifelse(is.finite(x$n_needed),
                        sprintf("; about %s would settle a difference this large",
                                format(x$n_needed,
                                       scientific = FALSE, trim = TRUE)),
                        "; no difference observed"))
  sprintf(paste0("%s: that %s has %s than %s is %s (means %s and %s; ",
                 "paired difference %s, %g%% interval [%s, %s], %d ",
                 "replications%s)."),
          x$problem, x$policy, what, x$baseline, x$verdict,
          f(x$mean_policy), f(x$mean_baseline), f(x$difference), lvl,
          f(x$lower), f(x$upper), x$n, more)
}

#' @export
print.bo_compare <- function(x, digits = 3L, ...) {
  cat(sprintf("Paired comparison: is %s better than %s? (%g%% t-intervals; positive favours %s)\n",
              x$policy[1L], x$baseline[1L], 100 * attr(x, "level"),
              x$policy[1L]))
  y <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  y$policy <- y$baseline <- NULL
  num <- vapply(y, is.double, NA)
  y[num] <- lapply(y[num], signif, digits = digits)
  print(y, row.names = FALSE)
  invisible(x)
}
