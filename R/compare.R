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
#' `baseline - policy` for measures where lower is better (regret, and the
#' best value of a problem defined with `maximize = FALSE`, whose best value
#' is its smallest), `policy - baseline` otherwise.
#'
#' @param x A [bo_benchmark()], or a data frame with columns `problem`,
#'   `policy`, `rep` and the numeric column named by `measure`, with one row
#'   per replication (e.g. a per-replication score computed by a study): a
#'   repeated (`problem`, `policy`, `rep`) is an error, since pairs are
#'   matched one to one.
#' @param policy,baseline Names of two policies in `x`.
#' @param measure For a benchmark, `"log10_regret"` (the default when the
#'   problems' optima are known), `"regret"` or `"best_value"`, read at cost
#'   `cost`; for a data frame, the name of its column to compare.
#' @param higher_is_better For a data frame, whether larger values of
#'   `measure` are better (required); for a benchmark it follows from
#'   `measure` and, for `"best_value"`, from each problem's direction
#'   (`maximize` in [bo_problem()]).
#' @param cost For a benchmark, the cost at which to read the measure: a
#'   single number, or `NULL` (default) for each problem's budget; ignored
#'   for a data frame.
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
  cd <- compare_data(x, policy, baseline, measure, higher_is_better, cost)
  df <- cd$data
  measure <- cd$measure
  rows <- lapply(unique(df$problem), function(pb) {
    m <- compare_pairs(df[df$problem == pb, , drop = FALSE], policy, baseline,
                       measure)
    if (is.null(m)) return(NULL)
    v <- paired_verdict(ifelse(m$higher, m$p - m$b, m$b - m$p), level)
    data.frame(problem = pb, policy = policy, baseline = baseline,
               measure = measure, n = nrow(m), mean_policy = mean(m$p),
               mean_baseline = mean(m$b), difference = v$difference,
               lower = v$lower, upper = v$upper, verdict = v$verdict,
               n_needed = v$n_needed, higher = m$higher[1L],
               stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  if (is.null(out)) {
    stop_costbo(sprintf("`%s` and `%s` have no paired replications with finite values",
                        policy, baseline))
  }
  rownames(out) <- NULL
  # the direction of each row (one value when all rows share it)
  higher <- out$higher
  out$higher <- NULL
  attr(out, "level") <- level
  attr(out, "higher_is_better") <- if (length(unique(higher)) == 1L) {
    higher[1L]
  } else higher
  class(out) <- c("bo_compare", "data.frame")
  out
}

#' @rdname bo_compare
#' @param digits Significant digits of the numbers in the sentences.
#' @param ... Unused.
#' @return `format()`: one sentence per row (a character vector).
#' @export
format.bo_compare <- function(x, digits = 2L, ...) {
  digits <- check_digits(digits)
  f <- function(v) vapply(v, function(e) format(signif(e, digits)), "")
  lvl <- 100 * attr(x, "level")
  higher <- attr(x, "higher_is_better")
  what <- paste(ifelse(rep_len(higher %in% TRUE, nrow(x)), "higher", "lower"),
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
  digits <- check_digits(digits)
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

#' The verdict on a paper's claim, computed from a study
#'
#' A claim of a paper ("`policy` finds better solutions than `baseline` on
#' these problems") checked against a study's replications: the paired
#' differences of [bo_compare()] on each of `problems` are pooled (a pair is
#' one replication of one problem), and the claim is
#' * `"reproduced"` when the pooled `level` t-interval of the mean
#'   difference excludes 0 on the side of the claim,
#' * `"refuted"` when it excludes 0 on the other side,
#' * `"inconclusive"` otherwise, with `n_needed` the pairs at which an
#'   interval would exclude 0 if the mean and standard deviation of the
#'   differences stayed as observed.
#'
#' Pooling treats the problems' differences as one sample. It is meant for a
#' measure on a common scale (log10 regret, a normalized gap); the verdict
#' on each problem alone is reported next to it (`by_problem`) so that a
#' pooled verdict carried by one problem shows.
#'
#' Verdict tables of the vignettes are `rbind()`s of `bo_claim()`s; the
#' sentence of [format()] is what their prose says.
#'
#' @inheritParams bo_compare
#' @param claim The claim, quoted from the paper (a string).
#' @param problems Names of the problems of `x` the claim is about; `NULL`
#'   (default) for all problems in which both policies have paired
#'   replications.
#' @return A one-row data frame of class `bo_claim`: `claim`, `policy`,
#'   `baseline`, `measure`, `problems` (comma-separated), `n` (pairs),
#'   `difference` (mean pooled difference, positive favours `policy`),
#'   `lower`, `upper`, `verdict`, `n_needed`, and `by_problem` (the
#'   per-problem verdicts, e.g. `"reproduced on 2, inconclusive on 1 of 3"`).
#'   `format()` gives one sentence per row.
#' @seealso [bo_compare()] for the per-problem comparisons.
#' @family benchmarks
#' @examples
#' probs <- list(branin = test_problem("branin", budget = 4),
#'               camel = test_problem("six_hump_camel", budget = 4))
#' pols <- list(EI = policy_ei(), UCB = policy_ucb())
#' bm <- bo_benchmark(probs, pols, reps = 3, n_init = 4, progress = FALSE)
#' tab <- rbind(
#'   bo_claim(bm, "EI finds lower regret than UCB", "EI", "UCB"),
#'   bo_claim(bm, "EI finds lower regret than UCB on Branin", "EI", "UCB",
#'            problems = "branin"))
#' tab
#' format(tab)
#' @export
bo_claim <- function(x, claim, policy, baseline, problems = NULL,
                     measure = NULL, higher_is_better = NULL, cost = NULL,
                     level = 0.95) {
  claim <- check_string(claim)
  policy <- check_string(policy)
  baseline <- check_string(baseline)
  level <- check_number(level, min = 0, max = 1, min_open = TRUE)
  cd <- compare_data(x, policy, baseline, measure, higher_is_better, cost)
  m <- compare_pairs(cd$data, policy, baseline, cd$measure)
  if (!is.null(problems)) {
    if (!is.character(problems) || !length(problems) || anyNA(problems) ||
        !all(problems %in% cd$data$problem)) {
      stop_arg("problems", sprintf("names of problems of `x` (%s)",
                                   paste0("\"", unique(cd$data$problem), "\"",
                                          collapse = ", ")), problems)
    }
    m <- m[m$problem %in% problems, , drop = FALSE]
  }
  if (is.null(m) || !nrow(m)) {
    stop_costbo(sprintf("`%s` and `%s` have no paired replications with finite values",
                        policy, baseline))
  }
  sign <- ifelse(m$higher, 1, -1)
  v <- paired_verdict(sign * (m$p - m$b), level)
  probs <- unique(m$problem)
  each <- vapply(probs, function(pb) {
    k <- m$problem == pb
    paired_verdict(sign[k] * (m$p[k] - m$b[k]), level)$verdict
  }, "")
  counts <- table(factor(each, c("reproduced", "refuted", "inconclusive")))
  counts <- counts[counts > 0]
  out <- data.frame(
    claim = claim, policy = policy, baseline = baseline, measure = cd$measure,
    problems = paste(probs, collapse = ", "), n = nrow(m),
    difference = v$difference, lower = v$lower, upper = v$upper,
    verdict = v$verdict, n_needed = v$n_needed,
    by_problem = sprintf("%s of %d", paste(names(counts), "on", counts,
                                           collapse = ", "), length(probs)),
    stringsAsFactors = FALSE)
  attr(out, "level") <- level
  class(out) <- c("bo_claim", "data.frame")
  out
}

#' @rdname bo_claim
#' @param digits Significant digits of the numbers in the sentences.
#' @param ... Unused.
#' @export
format.bo_claim <- function(x, digits = 2L, ...) {
  digits <- check_digits(digits)
  f <- function(v) vapply(v, function(e) format(signif(e, digits)), "")
  lvl <- 100 * if (is.null(attr(x, "level"))) 0.95 else attr(x, "level")
  more <- ifelse(x$verdict != "inconclusive", "",
                 ifelse(is.finite(x$n_needed),
                        sprintf("; about %s pairs would settle a difference this large",
                                format(x$n_needed, scientific = FALSE,
                                       trim = TRUE)),
                        "; no difference observed"))
  sprintf(paste0("\"%s\": %s (%s against %s, %s; mean paired difference %s, ",
                 "%g%% interval [%s, %s], %d pairs on %s; per problem %s%s)."),
          x$claim, x$verdict, x$policy, x$baseline, gsub("_", " ", x$measure),
          f(x$difference), lvl, f(x$lower), f(x$upper), x$n, x$problems,
          x$by_problem, more)
}

#' @export
print.bo_claim <- function(x, digits = 3L, ...) {
  digits <- check_digits(digits)
  y <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  num <- vapply(y, is.double, NA)
  y[num] <- lapply(y[num], signif, digits = digits)
  print(y, row.names = FALSE)
  invisible(x)
}

# The measure of every replication at the cost it is read at: a data frame
# (problem, policy, rep, measure, higher: is a larger value better, which
# for the best value depends on the problem's direction), with the
# measure's name; checks that both policies are in it.
compare_data <- function(x, policy, baseline, measure, higher_is_better,
                         cost, call = sys.call(-1L)) {
  if (inherits(x, "bo_benchmark")) {
    if (!is.null(cost)) cost <- check_number(cost, min = 0, call = call)
    df <- as.data.frame(x)
    known <- any(!is.na(df$regret))
    measure <- if (is.null(measure)) {
      if (known) "log10_regret" else "best_value"
    } else check_choice(measure, c("log10_regret", "regret", "best_value"),
                        call = call)
    higher <- measure == "best_value" & benchmark_maximize(x)
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
    df$higher <- unname(higher[df$problem])
  } else if (is.data.frame(x)) {
    measure <- check_string(measure, call = call)
    need <- c("problem", "policy", "rep", measure)
    if (!all(need[1:3] %in% names(x))) {
      stop_arg("x", sprintf("a data frame with columns %s (%s numeric)",
                            paste(need, collapse = ", "), measure), x,
               call, show = FALSE)
    }
    if (!is.numeric(x[[measure]])) {
      stop_args(c("measure", "x"), sprintf(
        "match: `measure` names a numeric column of `x` (\"%s\" is %s)",
        measure, if (measure %in% names(x)) "not numeric" else
          "not a column"), call = call)
    }
    if (is.null(higher_is_better)) {
      stop_arg("higher_is_better", "TRUE or FALSE for a data frame `x`",
               higher_is_better, call)
    }
    higher_is_better <- check_flag(higher_is_better, call = call)
    df <- x[, need, drop = FALSE]
    df$higher <- rep(higher_is_better, nrow(df))
  } else {
    stop_arg("x", "a bo_benchmark or a data frame", x, call)
  }
  check_compare_keys(df, call)
  pols <- unique(df$policy)
  for (p in c(policy, baseline)) {
    if (!(p %in% pols)) {
      arg <- if (identical(p, policy)) "policy" else "baseline"
      stop_arg(arg, sprintf("one of the policies of `x` (%s)",
                            paste0("\"", pols, "\"", collapse = ", ")), p, call)
    }
  }
  list(data = df, measure = measure)
}

# One row per (problem, policy, rep), so that pairs are matched one to one:
# a repeated key, even on a row identical in every column, would be paired
# with every row of the other policy and count as extra replications
# (issue 39).
check_compare_keys <- function(df, call) {
  key <- df[, c("problem", "policy", "rep"), drop = FALSE]
  dup <- duplicated(key)
  if (!any(dup)) return(invisible(df))
  first <- key[which(dup)[1L], , drop = FALSE]
  same <- key$problem == first$problem & key$policy == first$policy &
    key$rep == first$rep
  n_keys <- nrow(unique(key[dup, , drop = FALSE]))
  stop_arg("x", sprintf(paste0(
    "a benchmark or data frame with one row per problem, policy and ",
    "replication (`rep`), but problem ",
    "\"%s\", policy \"%s\", rep %s has %d rows%s"),
    first$problem, first$policy, format(first$rep), sum(same, na.rm = TRUE),
    if (n_keys > 1L) sprintf(" (%d keys are repeated)", n_keys) else ""),
    show = FALSE, call = call)
}

# The finite pairs (by replication) of `policy` (p) and `baseline` (b) in a
# data frame of compare_data(), with their direction (`higher`); NULL when
# there are none.
compare_pairs <- function(df, policy, baseline, measure) {
  a <- df[df$policy == policy, , drop = FALSE]
  b <- df[df$policy == baseline, , drop = FALSE]
  m <- merge(a[, c("problem", "rep", measure, "higher")],
             b[, c("problem", "rep", measure)],
             by = c("problem", "rep"), suffixes = c(".p", ".b"))
  out <- data.frame(problem = m$problem, rep = m$rep,
                    p = m[[paste0(measure, ".p")]],
                    b = m[[paste0(measure, ".b")]], higher = m$higher,
                    stringsAsFactors = FALSE)
  out <- out[is.finite(out$p) & is.finite(out$b), , drop = FALSE]
  if (nrow(out)) out else NULL
}

# Mean of paired differences d (positive favours the claim), its t-interval,
# the verdict and, when inconclusive, the replications that would settle it.
paired_verdict <- function(d, level) {
  ci <- mean_ci(d, level)
  verdict <- if (anyNA(ci[2:3])) "inconclusive" else if (ci[2L] > 0) {
    "reproduced"
  } else if (ci[3L] < 0) "refuted" else "inconclusive"
  z <- stats::qnorm(0.5 + level / 2)
  n_needed <- if (verdict != "inconclusive") NA_real_ else
    if (length(d) > 1L && ci[1L] != 0) {
      max(length(d) + 1, ceiling((z * stats::sd(d) / ci[1L])^2))
    } else Inf
  list(difference = ci[1L], lower = ci[2L], upper = ci[3L], verdict = verdict,
       n_needed = n_needed)
}
