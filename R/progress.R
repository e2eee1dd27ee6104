# Progress of runs and benchmarks: a message per evaluation (per
# replication of a benchmark), from the first point of the initial design
# on, and progressr steps for those who render them.

#' Progress of runs and benchmarks
#'
#' With `progress = TRUE` (the default in interactive sessions; give it
#' explicitly under `Rscript`), [bo_optimize()] and [bo_resume()] report
#' every evaluation as it is recorded, the initial design's included, and
#' [bo_benchmark()] every finished replication.
#'
#' @section Messages:
#' Each report is a message, signalled by [message()] as a condition of
#' class `costbo_progress` (then `costbo_message`, `message`), so
#' [suppressMessages()] silences it, `suppressMessages(expr, classes =
#' "costbo_progress")` silences progress alone, and a calling handler can
#' read its fields: for an evaluation `evaluation` (its number in the run),
#' `phase` (`"initial"` or `"bo"`), `value`, `cost`, `spent`, `budget`,
#' `best` (the best value so far), `worker` (asynchronous runs); for a
#' replication `replication`, `of`, `problem`, `policy`, `rep`, `status`,
#' `evaluations`, `spent`, `budget`, `best`. Numbers are shown to 4
#' significant digits.
#'
#' In a console (an interactive session whose messages are not diverted by
#' [sink()]) the reports rewrite one line. Elsewhere (`Rscript`, a log
#' file, a sink, a knitted document) each report is a line of its own, so
#' that a log reads as a table:
#'
#' ```
#' [costbo]    1 initial 1/2    value -0.6915  cost 1.651   spent 1.651/100   best -0.6915
#' [costbo]    2 initial 2/2    value 0.2063   cost 1.489   spent 3.14/100    best 0.2063
#' [costbo]    3 bo             value 0.9912   cost 1.24    spent 4.379/100   best 0.9912
#' ```
#'
#' A failed evaluation shows `failed` as its value; with asynchronous
#' evaluations ([bo_async]) the worker is shown after the phase.
#'
#' @section progressr:
#' When the \pkg{progressr} package is installed, the same reports are
#' also signalled as \pkg{progressr} steps, as packages built on
#' \pkg{future} do: nothing is shown unless the call is wrapped in
#' `progressr::with_progress()` or `progressr::handlers(global = TRUE)` is
#' set, and the handlers chosen with `progressr::handlers()` render them
#' (a progress bar, a notification, ...); outside interactive sessions
#' \pkg{progressr} reports only with `options(progressr.enable = TRUE)`. A run counts its budget (each
#' evaluation advances by its charged cost), a benchmark its replications;
#' with `bo_benchmark(backend = "future")` the replications signal from the
#' workers, which \pkg{future} relays as they finish. `progress = FALSE`
#' turns both off; with a \pkg{progressr} handler, `progress = TRUE` and
#' `suppressMessages(classes = "costbo_progress")` keep the bar alone.
#'
#' @name bo_progress
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 12)
#' # one line per evaluation, as in a log file
#' run <- bo_optimize(prob, policy_ei_pu(), n_init = 4, charge_initial = TRUE,
#'                    seed = 1, progress = TRUE)
#' # the reports as data
#' seen <- list()
#' run <- withCallingHandlers(
#'   bo_optimize(prob, policy_ei_pu(), n_init = 4, charge_initial = TRUE,
#'               seed = 1, progress = TRUE),
#'   costbo_progress = function(m) {
#'     seen[[length(seen) + 1L]] <<- m
#'     invokeRestart("muffleMessage")
#'   })
#' vapply(seen, function(m) m$spent, numeric(1))
#' \donttest{
#' if (requireNamespace("progressr", quietly = TRUE)) {
#'   progressr::with_progress(
#'     run <- suppressMessages(bo_optimize(prob, policy_ei_pu(), seed = 1,
#'                                         progress = TRUE),
#'                             classes = "costbo_progress"))
#' }
#' }
NULL

# Whether reports rewrite one line: an interactive session whose messages
# go to the console.
progress_console <- function() {
  interactive() && sink.number(type = "message") == 2L
}

# Signal the report `text` (with the fields `data`) as a costbo_progress
# message: a line of its own, or in a console the one line rewritten.
progress_signal <- function(text, data = list(), console = progress_console()) {
  msg <- if (console) {
    paste0("\r", formatC(text, width = -max(nchar(text), 79L)))
  } else paste0(text, "\n")
  cond <- do.call(costbo_condition,
                  c(list(c("costbo_progress", "costbo_message"), msg),
                    data, type = "message"))
  message(cond)
  invisible(cond)
}

# A number as reports show it.
progress_num <- function(x) {
  if (length(x) != 1L || is.na(x)) "NA" else format(signif(x, 4L), digits = 4L)
}

# The progressr progressor of a run or a benchmark of `steps` steps, made in
# the frame `envir` of the exported function, which finishes it on exit;
# NULL when progress is off or progressr is not installed.
progress_progressor <- function(progress, steps, envir) {
  if (!isTRUE(progress) || !requireNamespace("progressr", quietly = TRUE)) {
    return(NULL)
  }
  progressr::progressor(steps = max(0, steps), envir = envir)
}

# The fields of the report of evaluation k of a state.
progress_fields <- function(state, k = length(state$value)) {
  phase <- state$phase[k]
  plan <- state$initial_plan
  ok <- state_ok(state)[k]
  list(evaluation = k, phase = phase,
       design = if (phase == "initial" && !is.null(plan)) {
         c(min(plan$done, nrow(plan$x)), nrow(plan$x))
       },
       worker = if (!is.null(state$n_workers)) state$worker[k],
       value = if (ok) user_value(state$problem, state$value[k]) else
         NA_real_, failed = !ok,
       cost = state$cost[k], spent = state$spent, budget = state$budget,
       best = user_value(state$problem, state_best(state)))
}

# The line of an evaluation's report.
progress_text <- function(f) {
  phase <- if (!is.null(f$design)) {
    sprintf("initial %d/%d", f$design[1L], f$design[2L])
  } else f$phase
  if (!is.null(f$worker) && !is.na(f$worker)) {
    phase <- sprintf("%s w%d", phase, f$worker)
  }
  sprintf("[costbo] %4d %-14s value %-8s cost %-7s spent %-11s best %s",
          f$evaluation, phase,
          if (f$failed) "failed" else progress_num(f$value),
          progress_num(f$cost),
          paste0(progress_num(f$spent), "/", progress_num(f$budget)),
          progress_num(f$best))
}

# Report the evaluation just recorded in a run's state (ctl: the run's
# settings, with its progressor).
progress_evaluation <- function(state, ctl) {
  if (!isTRUE(ctl$progress)) return(invisible())
  k <- length(state$value)
  f <- progress_fields(state, k)
  text <- progress_text(f)
  if (!is.null(ctl$progressor)) {
    ctl$progressor(message = text,
                   amount = if (isTRUE(state$charged[k])) state$cost[k] else 0)
  }
  progress_signal(text, f)
}

# The end of a run's reports: the rewritten line ends.
progress_end <- function(ctl) {
  if (isTRUE(ctl$progress) && progress_console()) {
    progress_signal("", console = FALSE)
  }
  invisible()
}

# --- benchmarks ----------------------------------------------------------------

# The fields of the report of a finished replication `rec` (as
# benchmark_task() returns it), number `i` of `n`.
progress_replication_fields <- function(rec, i, n) {
  tr <- rec$trace
  # in the problem's direction (a record of a minimized problem says so)
  best <- if (!is.null(tr) && any(tr$counts)) {
    user_value(rec, max(tr$value[tr$counts]))
  } else NA_real_
  list(replication = i, of = n, problem = rec$problem, policy = rec$policy,
       rep = rec$rep, status = rec$status,
       evaluations = if (is.null(tr)) 0L else nrow(tr),
       spent = if (is.null(tr) || !nrow(tr)) NA_real_ else
         tr$cumulative_cost[nrow(tr)],
       budget = rec$budget, best = best)
}

progress_replication_text <- function(f) {
  sprintf(paste("[costbo] benchmark %d/%d  %s  %s  rep %d  %s  %d evaluations",
                " spent %s/%s   best %s"),
          f$replication, f$of, f$problem, f$policy, f$rep, f$status,
          f$evaluations, progress_num(f$spent), progress_num(f$budget),
          progress_num(f$best))
}

# Report the finished replications `idx` (of n) of a benchmark.
progress_replications <- function(out, idx, n, progress) {
  if (!isTRUE(progress)) return(invisible())
  for (i in idx) {
    f <- progress_replication_fields(out[[i]], i, n)
    progress_signal(progress_replication_text(f), f)
  }
  invisible()
}

# A benchmark's job that signals a progressr step as each replication
# finishes (on a worker of the future back end, relayed by future).
progress_job <- function(job, p) {
  force(job)
  force(p)
  function(i) {
    rec <- job(i)
    p(message = sprintf("%s  %s  rep %d", rec$problem, rec$policy, rec$rep))
    rec
  }
}
