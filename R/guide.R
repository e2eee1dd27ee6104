# Which policy to start with: the evidence of the cached studies.

#' Which policy to start with, from the studies' evidence
#'
#' Ranks the policies compared in the studies cached with the package (the
#' reproductions of the five papers and the tuning studies, in
#' `inst/extdata`) within each setting: known or measured costs, low or
#' high dimension, a typed space, control sets, information sources. For
#' every problem of a setting the policies are ranked by the mean over
#' replications of the study's measure at the end of the budget (log10
#' regret, lower is better, where the optimum is known; the best value
#' otherwise; the simple regret for control sets), and the ranks are
#' averaged over the setting's problems. Only policies run on every
#' problem of the setting are ranked. The table is computed from the
#' caches each time; the vignettes of the papers give the paired
#' comparisons with their intervals and verdicts (whether a difference is
#' significant), which a rank alone does not.
#'
#' @param setting Optional: the settings to keep (see the `setting` column;
#'   partial matching of the start).
#' @return A data frame with one row per setting and policy, ordered by
#'   setting and mean rank: `setting`, `costs`, `dimension`, `problems` (the
#'   number of problems), `policy`, `mean_rank` (1 is best), `best_on` (the
#'   number of problems on which it ranked first), `reps` (replications per
#'   problem, the smallest), `measure` and `study` (the cache).
#' @family policies
#' @examples
#' g <- bo_policy_guide()
#' # the policy ranked first in each setting
#' g[!duplicated(g$setting), c("setting", "policy", "mean_rank", "problems")]
#' @export
bo_policy_guide <- function(setting = NULL) {
  if (!is.null(setting) && !(is.character(setting) && length(setting) >= 1L &&
                             !anyNA(setting))) {
    stop_arg("setting", "NULL or names of settings", setting)
  }
  rows <- lapply(guide_settings(), function(s) {
    cache <- system.file("extdata", paste0(s$study, ".rds"),
                         package = "costbo")
    if (!nzchar(cache)) return(NULL)
    fin <- readRDS(cache)$final
    fin <- fin[grepl(s$problems, fin$problem), , drop = FALSE]
    if (!is.null(s$policies)) {
      fin <- fin[grepl(s$policies, fin$policy), , drop = FALSE]
    }
    if (!nrow(fin)) return(NULL)
    guide_rank(fin, s)
  })
  out <- do.call(rbind, rows)
  if (!is.null(setting)) {
    keep <- Reduce(`|`, lapply(setting, function(p) startsWith(out$setting, p)))
    out <- out[keep, , drop = FALSE]
  }
  rownames(out) <- NULL
  out
}

# The settings of the guide: the study, the problems (a regular
# expression), the policies (a regular expression, NULL for all),
# the measure and its direction.
guide_settings <- function() {
  s <- function(setting, costs, dimension, study, problems, measure,
                lower_better, policies = NULL) {
    list(setting = setting, costs = costs, dimension = dimension,
         study = study, problems = problems,
         policies = policies, measure = measure, lower_better = lower_better)
  }
  list(
    s("measured cost, synthetic, d = 2-4", "measured", "2-4",
      "budgeted-lookahead", ".", "log10_regret", TRUE),
    s("measured cost, model tuning, d = 3", "measured", "3", "rf-boston", ".",
      "best_value", FALSE),
    s("measured cost, typed space", "measured", "5 settings", "tuning",
      "typed", "best_value", FALSE),
    s("known cost, d = 2", "known", "2", "rollout", "^lee2021$|cosine",
      "log10_regret", TRUE),
    s("learned cost, d = 2", "measured", "2", "rollout", "cost learned",
      "log10_regret", TRUE),
    s("known cost, d = 4-32", "known", "4-32", "pandora", ".",
      "log10_regret", TRUE),
    s("unit cost, lookahead, d = 2-3", "unit", "2-3", "rollout",
      "^(Bohachevsky|Branin|Goldstein-Price|Griewank-3|Six-hump camel)$",
      "log10_regret", TRUE),
    s("information sources, d = 2", "by source", "2", "rollout", "sources",
      "log10_regret", TRUE),
    s("control sets, d = 3", "by control set", "3", "control-sets", ".",
      "regret", TRUE))
}

# Rank the policies of one setting (see bo_policy_guide()).
guide_rank <- function(fin, s) {
  v <- fin[[s$measure]]
  ok <- is.finite(v)
  fin <- fin[ok, , drop = FALSE]
  v <- v[ok]
  cell <- stats::aggregate(list(value = v, reps = rep(1, length(v))),
                           list(problem = fin$problem, policy = fin$policy),
                           sum)
  cell$value <- cell$value / cell$reps
  problems <- unique(cell$problem)
  everywhere <- names(which(table(cell$policy) == length(problems)))
  cell <- cell[cell$policy %in% everywhere, , drop = FALSE]
  if (length(everywhere) < 2L) return(NULL)
  sign <- if (s$lower_better) 1 else -1
  cell$rank <- stats::ave(sign * cell$value, cell$problem,
                          FUN = function(x) rank(x, ties.method = "average"))
  pol <- sort(everywhere)
  out <- data.frame(
    setting = s$setting, costs = s$costs, dimension = s$dimension,
    problems = length(problems), policy = pol,
    mean_rank = vapply(pol, function(p) mean(cell$rank[cell$policy == p]), 0),
    best_on = vapply(pol, function(p) sum(cell$rank[cell$policy == p] == 1),
                     0),
    reps = vapply(pol, function(p) min(cell$reps[cell$policy == p]), 0),
    measure = s$measure, study = s$study, stringsAsFactors = FALSE)
  out[order(out$mean_rank), , drop = FALSE]
}

# The policy ranked first in each setting, as a markdown list (for the
# documentation of bo_policy, made when the documentation is).
guide_firsts <- function() {
  g <- bo_policy_guide()
  g <- g[!duplicated(g$setting), , drop = FALSE]
  paste0("\n", paste0("* ", g$setting, ": ", g$policy, collapse = "\n"), "\n")
}
