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
#' caches each time.
#'
#' Each policy is given as the call that makes it (`policy`), taken from
#' the recipe the study ran (the provenance of its cache), next to the
#' label the study gave it (`label`). A rank alone does not say whether a
#' difference is more than noise: every policy is also compared with the
#' first-ranked one of its setting on each problem, replication by
#' replication (the replications of a study share their random streams and
#' initial designs, so the differences are paired, as in [bo_compare()]),
#' and `behind_first` and `ahead_of_first` count the problems on which the
#' 95% t-interval of the mean paired difference excludes 0. [print()]
#' shows the ranks setting by setting, with a sentence saying why the
#' first-ranked policy is first and whether its lead is within noise at the
#' study's number of replications. The vignettes of the papers give the
#' paired comparisons the papers make, with their intervals and verdicts.
#'
#' @param setting Optional: the settings to keep, by name or by the start
#'   of a name (e.g. `"known cost"` keeps both settings with known costs).
#'   A value that starts no setting's name is an error (class
#'   `costbo_error_arg`) listing the settings.
#' @return A data frame of class `bo_policy_guide` with one row per setting
#'   and policy, ordered by setting and mean rank: `setting`, `costs`,
#'   `dimension`, `problems` (the number of problems), `policy` (the call
#'   that makes the policy, a string: `eval(str2lang(policy))` gives the
#'   policy), `label` (its name in the study), `mean_rank` (1 is best),
#'   `best_on` (the number of problems on which it ranked first), `reps`
#'   (replications per problem, the smallest), `behind_first` and
#'   `ahead_of_first` (the number of problems on which the first-ranked
#'   policy of the setting is better, or worse, than this one by a paired
#'   95% t-interval that excludes 0; `NA` for the first-ranked policy
#'   itself), `measure` and `study` (the cache).
#' @family policies
#' @examples
#' g <- bo_policy_guide()
#' # the policy ranked first in each setting
#' g[!duplicated(g$setting), c("setting", "policy", "mean_rank", "problems")]
#' # one setting, with why its first policy is first
#' bo_policy_guide("measured cost, typed space")
#' # the first-ranked policy of a setting, ready to run
#' eval(str2lang(g$policy[1]))
#' @export
bo_policy_guide <- function(setting = NULL) {
  settings <- guide_settings()
  names_all <- vapply(settings, `[[`, "", "setting")
  if (!is.null(setting)) {
    ok <- is.character(setting) && length(setting) >= 1L && !anyNA(setting) &&
      all(nzchar(setting))
    unknown <- if (ok) {
      setting[!vapply(setting, function(p) any(startsWith(names_all, p)), NA)]
    }
    if (!ok || length(unknown)) {
      stop_arg("setting", paste(
        "NULL or names of settings (or the start of one):",
        paste0("\"", names_all, "\"", collapse = ", ")),
        if (ok) unknown else setting)
    }
    settings <- settings[vapply(names_all, function(n) {
      any(startsWith(n, setting))
    }, NA)]
  }
  rows <- lapply(settings, function(s) {
    cache <- system.file("extdata", paste0(s$study, ".rds"),
                         package = "costbo")
    if (!nzchar(cache)) return(NULL)
    cache <- readRDS(cache)
    fin <- cache$final
    fin <- fin[grepl(s$problems, fin$problem), , drop = FALSE]
    if (!is.null(s$policies)) {
      fin <- fin[grepl(s$policies, fin$policy), , drop = FALSE]
    }
    if (!nrow(fin)) return(NULL)
    guide_rank(fin, s, guide_calls(cache))
  })
  out <- do.call(rbind, rows)
  if (is.null(out)) out <- guide_rank(NULL)
  rownames(out) <- NULL
  class(out) <- c("bo_policy_guide", "data.frame")
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

# Rank the policies of one setting (see bo_policy_guide()): `fin` the
# final records of the setting's problems, `s` the setting, `calls` the
# calls of the study's policies by label (guide_calls()). NULL when fewer
# than two policies ran on every problem; guide_rank(NULL) is the table
# with no rows.
guide_rank <- function(fin, s, calls = character()) {
  if (is.null(fin)) {
    return(data.frame(
      setting = character(), costs = character(), dimension = character(),
      problems = integer(), policy = character(), label = character(),
      mean_rank = double(), best_on = integer(), reps = integer(),
      behind_first = integer(), ahead_of_first = integer(),
      measure = character(), study = character(), stringsAsFactors = FALSE))
  }
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
  mean_rank <- vapply(pol, function(p) mean(cell$rank[cell$policy == p]), 0)
  pol <- pol[order(mean_rank)]
  # each policy against the first-ranked, problem by problem, paired by
  # replication: the problems on which the first is better (behind) or
  # worse (ahead) by a 95% interval that excludes 0
  vs_first <- vapply(pol, function(p) {
    if (p == pol[1L]) return(c(NA_integer_, NA_integer_))
    verdicts <- vapply(problems, function(pb) {
      m <- merge(fin[fin$problem == pb & fin$policy == pol[1L],
                     c("rep", s$measure)],
                 fin[fin$problem == pb & fin$policy == p, c("rep", s$measure)],
                 by = "rep")
      # positive favours the first-ranked policy
      paired_verdict(sign * (m[[3L]] - m[[2L]]), 0.95)$verdict
    }, "")
    c(sum(verdicts == "reproduced"), sum(verdicts == "refuted"))
  }, integer(2))
  label_call <- unname(calls[pol])
  out <- data.frame(
    setting = s$setting, costs = s$costs, dimension = s$dimension,
    problems = length(problems),
    policy = ifelse(is.na(label_call), pol, label_call), label = pol,
    mean_rank = unname(mean_rank[pol]),
    best_on = vapply(pol, function(p) {
      sum(cell$rank[cell$policy == p] == 1)
    }, 0L),
    reps = vapply(pol, function(p) {
      as.integer(min(cell$reps[cell$policy == p]))
    }, 0L),
    behind_first = vs_first[1L, ], ahead_of_first = vs_first[2L, ],
    measure = s$measure, study = s$study, stringsAsFactors = FALSE)
  rownames(out) <- NULL
  out
}

# The calls that made the policies of a study, by their labels: read from
# the recipes in the provenance of the study's cache (each recipe's
# `policies`, a call to list() or its text, whose names are the labels),
# as strings with the arguments named. A label given different calls by
# different recipes has NA (no single call made it).
guide_calls <- function(cache) {
  out <- character()
  for (r in cache$provenance$recipes) {
    e <- r$policies
    if (is.character(e)) {
      e <- tryCatch(str2lang(paste(e, collapse = "\n")),
                    error = function(err) NULL)
    }
    if (!is.call(e) || !identical(e[[1L]], as.name("list")) ||
        is.null(names(e))) next
    for (k in seq_along(e)[-1L]) {
      label <- names(e)[k]
      call <- guide_call_string(e[[k]])
      if (!(label %in% names(out))) {
        out[[label]] <- call
      } else if (!identical(out[[label]], call)) {
        out[[label]] <- NA_character_
      }
    }
  }
  out
}

# A policy's call as a string, its arguments named by the constructor's
# formals (policy_bmsei(2) gives "policy_bmsei(steps = 2)"); a deprecated
# constructor's call is the call that makes the same policy, which its
# warning names (policy_rollout(2) gives "policy_cmdp_rollout(horizon = 2,
# n_samples = 64, fantasy = \"observation\", optimizer = \"compass\")").
guide_call_string <- function(e) {
  f <- if (is.call(e) && is.name(e[[1L]])) {
    get0(as.character(e[[1L]]), envir = asNamespace("costbo"),
         mode = "function")
  }
  if (is.function(f)) e <- match.call(f, e)
  new <- NULL
  withCallingHandlers(
    tryCatch(eval(e, asNamespace("costbo")), error = function(err) NULL),
    costbo_warning_deprecated = function(w) {
      if (is.character(w$replacement)) new <<- w$replacement
      invokeRestart("muffleWarning")
    })
  if (!is.null(new)) return(new)
  paste(deparse(e, width.cutoff = 500L), collapse = " ")
}

#' @export
print.bo_policy_guide <- function(x, ...) {
  need <- c("setting", "problems", "policy", "label", "mean_rank", "best_on",
            "reps", "behind_first", "ahead_of_first", "measure", "study")
  if (!all(need %in% names(x))) {
    print(as.data.frame(unclass(x), stringsAsFactors = FALSE), ...)
    return(invisible(x))
  }
  cat(strwrap(paste(
    "Policies ranked in the cached studies. rank: the mean rank over the",
    "setting's problems (1 is best); best: the problems on which it ranked",
    "first; behind / ahead: the problems on which the first-ranked policy",
    "is better / worse by a paired 95% interval.")), sep = "\n")
  if (!nrow(x)) {
    cat("\n(no settings)\n")
    return(invisible(x))
  }
  for (st in unique(x$setting)) {
    g <- x[x$setting == st, , drop = FALSE]
    cat(sprintf("\n%s: %d problem%s, %s, study \"%s\"\n", st, g$problems[1L],
                if (g$problems[1L] == 1L) "" else "s",
                gsub("_", " ", g$measure[1L]), g$study[1L]))
    tab <- data.frame(
      policy = g$policy, label = g$label,
      rank = format(round(g$mean_rank, 2), nsmall = 2),
      best = g$best_on, reps = g$reps,
      behind = ifelse(is.na(g$behind_first), "",
                      as.character(g$behind_first)),
      ahead = ifelse(is.na(g$ahead_of_first), "",
                     as.character(g$ahead_of_first)),
      stringsAsFactors = FALSE)
    names(tab)[1L] <- " policy"
    tab[[1L]] <- paste0(" ", tab[[1L]])
    print(tab, row.names = FALSE, right = FALSE)
    note <- guide_note(g)
    if (nzchar(note)) cat(strwrap(note, indent = 1L, exdent = 1L), sep = "\n")
  }
  invisible(x)
}

# Why the first-ranked policy of one setting's rows `g` is first, and
# whether its lead is within noise ("" when the first-ranked row is not
# among them).
guide_note <- function(g) {
  i <- which(is.na(g$behind_first))
  if (length(i) != 1L) return("")
  first <- g[i, ]
  rest <- g[-i, , drop = FALSE]
  n <- first$problems
  tied <- rest$label[abs(rest$mean_rank - first$mean_rank) < 1e-12]
  reps <- range(g$reps)
  reps <- if (reps[1L] == reps[2L]) sprintf("%d replications", reps[1L]) else
    sprintf("%d to %d replications", reps[1L], reps[2L])
  head <- sprintf("%s ranks first%s: mean rank %s, best on %d of %d problem%s.",
                  first$policy,
                  if (length(tied)) sprintf(" (tied with %s)",
                                            paste(tied, collapse = ", ")) else "",
                  format(round(first$mean_rank, 2), nsmall = 2),
                  first$best_on, n, if (n == 1L) "" else "s")
  behind <- rest[rest$behind_first > 0, , drop = FALSE]
  ahead <- rest[rest$ahead_of_first > 0, , drop = FALSE]
  even <- rest[rest$behind_first == 0 & rest$ahead_of_first == 0, ,
               drop = FALSE]
  if (!nrow(behind) && !nrow(ahead)) {
    return(paste(head, sprintf(paste(
      "At %s no other policy differs from it on any problem by a paired 95%%",
      "interval: the order of this setting is within noise."), reps)))
  }
  on <- function(label, k) paste(sprintf("%s on %d", label, k), collapse = ", ")
  parts <- c(
    if (nrow(behind)) paste("it is ahead of", on(behind$label,
                                                 behind$behind_first)),
    if (nrow(ahead)) paste("behind", on(ahead$label, ahead$ahead_of_first)),
    if (nrow(even)) paste("within noise of", paste(even$label, collapse = ", "),
                          "on every problem"))
  sprintf("%s By paired 95%% intervals at %s, of its %d problem%s: %s.", head,
          reps, n, if (n == 1L) "" else "s", paste(parts, collapse = "; "))
}

# The policy ranked first in each setting, as a markdown list (for the
# documentation of bo_policy, made when the documentation is).
guide_firsts <- function() {
  g <- bo_policy_guide()
  g <- g[!duplicated(g$setting), , drop = FALSE]
  paste0("\n", paste0("* ", g$setting, ": `", g$policy, "`",
                      collapse = "\n"), "\n")
}
