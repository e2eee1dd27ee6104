# Benchmarks: problems x policies x replications on R's parallel engines,
# with regret curves on a common cost grid.

#' Benchmark policies on problems over replications
#'
#' Runs every policy on every problem for each replication with
#' [bo_optimize()], on R's own parallel engines, and summarises each run as
#' its best value, simple regret and log10 regret against the cost spent,
#' read off on a common grid of costs from 0 to the problem's budget.
#'
#' @section Random streams:
#' Replication `r` runs on the `r`-th L'Ecuyer-CMRG stream
#' ([parallel::nextRNGStream()]) derived from `seed`, the same stream for
#' every problem and policy. So the policies of one replication share their
#' initial design (common random numbers), and the results do not depend on
#' the back end, on the number of workers or on which replications run
#' together: `reps = 11:20` run later gives the replications a run with
#' `reps = 20` would have given, `rep_ids = 7` gives replication 7 alone
#' exactly as any run that includes it (all but the times), and [c()] joins
#' such benchmarks. The caller's random-number generator is left as it was.
#'
#' @section Back ends:
#' - `"sequential"`: in this R session.
#' - `"parallel"`: a cluster of the \pkg{parallel} package: `cluster` if given
#'   (any cluster, e.g. PSOCK workers on several hosts made with
#'   [parallel::makePSOCKcluster()]; costbo must be installed on them), else
#'   `processes` local R processes (forked on Unix, PSOCK elsewhere) that
#'   are stopped at the end.
#' - `"future"`: [future.apply::future_lapply()] under the current
#'   [future::plan()] (multisession, cluster, or a batchtools scheduler such
#'   as Slurm through \pkg{future.batchtools}); `processes` and `cluster`
#'   are not used.
#'
#' costbo is attached on the workers. Objectives and costs are sent to the
#' workers with the problems: a function that calls functions or data of the
#' global environment needs them on the workers too (for instance with
#' [parallel::clusterExport()]).
#'
#' @section Failures and interruptions:
#' A replication whose run fails (the objective or the policy fails, or the
#' problem cannot be built) is kept with its status `"failed"`, its error
#' message and the evaluations it made, and left out of the curves. Work is
#' sent out in rounds of one replication per worker; an interrupt (Ctrl-C)
#' keeps every replication finished before it, and the others are reported
#' as `"not run"`.
#'
#' @section The cost grid:
#' The cost spent after an evaluation is the cumulative charged cost of
#' [as.data.frame.bo_run()] (the initial design's costs count unless
#' `charge_initial = FALSE`). At grid cost `c` the best value is the best
#' successful evaluation (of the objective itself, source 0, for a
#' multi-source problem) whose cumulative cost is at most `c` (a step
#' function, carried forward between evaluations; `NA` before the first;
#' the smallest value of a problem with `maximize = FALSE`, whose values are
#' reported as its objective gives them, see [bo_problem()]), the regret is
#' its distance to the problem's `optimum` (for problems with control sets
#' that record their noise-free objective, the simple regret of Tay et al.
#' 2023), and the log10 regret counts regrets below 1e-10 (including
#' negative ones from noisy observations) as 1e-10.
#'
#' @param problems A named list of problems: [bo_problem()]s, or functions
#'   of the replication number returning one (for problems that change with
#'   the replication, e.g. `function(r) test_problem("dropwave", seed = r)`).
#'   A single `bo_problem` is taken as a list of one.
#' @param policies A named list of policies (see [bo_policy]); a single
#'   policy is taken as a list of one.
#' @param reps A number of replications (a single number n: replications
#'   1 to n), or a vector of two or more distinct replication numbers (e.g.
#'   `11:20`); for chosen replication numbers use `rep_ids`.
#' @param backend `"sequential"`, `"parallel"` or `"future"`.
#' @param processes Number of local R processes for `backend =
#'   "parallel"` without a `cluster` (default `getOption("mc.cores", 2)`).
#'   (Called `workers` before; in costbo `workers` are the evaluations one
#'   run keeps going at once, see [bo_optimize()] and `virtual_workers`.)
#' @param workers Deprecated: use `processes`.
#' @param cluster A cluster from [parallel::makeCluster()] for
#'   `backend = "parallel"`; it is left running.
#' @param seed The seed from which the replications' streams are derived.
#' @param n_grid Number of points of each problem's cost grid.
#' @param n_init,max_evaluations,charge_initial,gp_args,budget_rule,budget_prob,design Passed to
#'   [bo_optimize()] (`gp_args`: further [gp_fit()] arguments for the
#'   objective's GP, e.g. fixed hyperparameters for Bayesian regret on GP
#'   prior samples).
#' @param virtual_workers `NULL`, or a number k of virtual workers: every
#'   run keeps k evaluations running on the simulated clock of [bo_async]
#'   (each evaluation takes its cost in simulated time; `1` is the
#'   sequential run, timed), deterministically whatever the back end. The
#'   evaluations then have their finishing times (`t_done`) and the
#'   replications the time their last evaluation finished (`clock`). At
#'   most 64.
#' @param progress Report each finished replication (see [bo_progress];
#'   with the parallel and future back ends, after each round of one
#'   replication per worker; with `backend = "future"` the \pkg{progressr}
#'   steps come from the workers as replications finish).
#' @param rep_ids `NULL`, or the replication numbers to run instead of
#'   `reps`: one or more distinct whole numbers in \[1, 1e6\], always
#'   taken as replication numbers (`rep_ids = 7` runs replication 7 alone,
#'   as a run with `reps = 7` or more would have run it). Give `reps` or
#'   `rep_ids`, not both.
#' @param model Deprecated name of `gp_args`.
#' @return A `bo_benchmark`: use [as.data.frame()] (the curves: one row per
#'   problem, policy, replication and grid cost, with columns `problem`,
#'   `policy`, `rep`, `cost`, `best_value`, `regret`, `log10_regret`),
#'   [summary()], [plot()] and [c()] on it. Its element `replications` is a
#'   data frame with one row per replication (`status`, `error`, number of
#'   evaluations, cost spent, final best value and regret, `seconds`, the
#'   reason the run stopped: `stop_reason` for people, `stop_code` for
#'   programs, the run's code (see [bo_optimize()]), `"error"` when the run
#'   raised an error and `""` for a replication not run) and `evaluations`
#'   one row per evaluation
#'   (`problem`, `policy`, `rep`, `cumulative_cost`, `value`, `status`,
#'   `phase`, the information source `source` of a multi-source problem,
#'   the policy's recorded horizon `h` and control set `control_set`, and
#'   the evaluated point in columns `x1`, `x2`, ... (as many as the largest
#'   dimension among the problems); `NA` where there is none). Its element
#'   `provenance` records the build that made it ([costbo_build()]: the
#'   costbo version and the hash of its sources), the call and its date
#'   (UTC).
#' @family benchmarks
#' @examples
#' probs <- list(branin = test_problem("branin", budget = 4))
#' pols <- list(EI = policy_ei(), `EI-PU` = policy_ei_pu())
#' bm <- bo_benchmark(probs, pols, reps = 2, n_init = 4, progress = FALSE)
#' bm
#' summary(bm)
#' head(as.data.frame(bm))
#' \donttest{
#' # the same replications on two local workers
#' bm2 <- bo_benchmark(probs, pols, reps = 2, n_init = 4,
#'                     backend = "parallel", processes = 2, progress = FALSE)
#' all.equal(as.data.frame(bm), as.data.frame(bm2))
#' }
#' # replication 2 alone, as the run above made it
#' bm_2 <- bo_benchmark(probs, pols, rep_ids = 2, n_init = 4,
#'                      progress = FALSE)
#' all.equal(bm_2$evaluations, bm$evaluations[bm$evaluations$rep == 2, ],
#'           check.attributes = FALSE)
#' @export
bo_benchmark <- function(problems, policies, reps = 10L,
                         backend = c("sequential", "parallel", "future"),
                         processes = NULL, cluster = NULL, seed = 1L,
                         n_grid = 101L, n_init = NULL, max_evaluations = NULL,
                         charge_initial = TRUE, gp_args = list(),
                         virtual_workers = NULL, progress = interactive(),
                         rep_ids = NULL, budget_rule = c("feasible", "stop"),
                         budget_prob = 0.9, design = c("sobol", "minimax"),
                         model, workers) {
  if (!missing(model)) {
    gp_args <- renamed_arg(model, "model", "gp_args", !missing(gp_args))
  }
  if (!missing(workers)) {
    processes <- renamed_arg(workers, "workers", "processes",
                             !missing(processes))
  }
  problems <- check_named_list(problems, "bo_problem", "problems",
                               allow_function = TRUE)
  policies <- check_named_list(policies, "bo_policy", "policies")
  reps <- check_reps(reps, rep_ids, reps_given = !missing(reps))
  backend <- check_choice(backend, c("sequential", "parallel", "future"))
  seed <- check_count(seed)
  n_grid <- check_count(n_grid, min = 2L)
  if (!is.null(n_init)) n_init <- check_count(n_init)
  if (!is.null(max_evaluations)) max_evaluations <- check_count(max_evaluations)
  charge_initial <- check_flag(charge_initial)
  budget_rule <- check_budget_rule(budget_rule)
  budget_prob <- check_budget_prob(budget_prob)
  design <- check_design(design)
  model <- check_model_args(gp_args)
  if (!is.null(virtual_workers)) {
    virtual_workers <- check_count_max(virtual_workers, 1L, max_workers,
                                       arg = "virtual_workers")
  }
  progress <- check_flag(progress)
  if (!is.null(processes)) processes <- check_count(processes, min = 1L)
  if (!is.null(cluster) && !inherits(cluster, "cluster")) {
    stop_arg("cluster", "a cluster made by parallel::makeCluster()", cluster)
  }
  if (backend == "future" && !requireNamespace("future.apply", quietly = TRUE)) {
    stop_arg("backend", "\"sequential\" or \"parallel\" unless the future.apply package is installed",
             backend)
  }
  tasks <- expand.grid(rep = reps, policy = names(policies),
                       problem = names(problems), stringsAsFactors = FALSE)
  tasks <- tasks[, c("problem", "policy", "rep")]
  # replication k runs on the k-th stream, whichever others run; only the
  # streams of the replications that run are kept (and sent to workers)
  streams <- replication_streams(seed, max(reps), keep = reps)
  task_streams <- streams[match(tasks$rep, reps)]
  args <- list(n_init = n_init, max_evaluations = max_evaluations,
               charge_initial = charge_initial, model = model,
               virtual_workers = virtual_workers, budget_rule = budget_rule,
               budget_prob = budget_prob, design = design)
  job <- function(i) {
    benchmark_task(tasks[i, ], problems, policies, task_streams[[i]], args)
  }
  environment(job) <- list2env(list(tasks = tasks, problems = problems,
                                    policies = policies,
                                    task_streams = task_streams,
                                    args = args),
                               parent = asNamespace("costbo"))
  started <- Sys.time()
  out <- run_tasks(job, nrow(tasks), backend, processes, cluster, progress,
                   task_streams, tasks)
  new_benchmark(out, tasks, seed, reps, n_grid, backend,
                as.double(difftime(Sys.time(), started, units = "secs")),
                c(costbo_build(), list(call = match.call(),
                                       date = format(started, tz = "UTC",
                                                     usetz = TRUE))))
}

new_benchmark <- function(records, tasks, seed, reps, n_grid, backend,
                          seconds, provenance) {
  x <- list(records = records, tasks = tasks, seed = seed, reps = reps,
            n_grid = n_grid, backend = backend, seconds = seconds,
            provenance = provenance)
  x$replications <- benchmark_replications(x)
  x$evaluations <- benchmark_evaluations(x)
  structure(x, class = "bo_benchmark")
}

# The first n L'Ecuyer-CMRG streams from `seed` (replication k's is the
# k-th), or of them those of the replications `keep` (numbers in 1..n), in
# the order of `keep`: a stream does not depend on which others are kept.
# The caller's generator is left untouched.
replication_streams <- function(seed, n, keep = seq_len(n)) {
  saved <- save_rng()
  on.exit(restore_rng(saved))
  RNGkind("L'Ecuyer-CMRG")
  set.seed(seed)
  s <- get(".Random.seed", envir = globalenv())
  at <- match(seq_len(n), keep)
  out <- vector("list", length(keep))
  for (i in seq_len(n)) {
    if (!is.na(at[i])) out[[at[i]]] <- s
    s <- parallel::nextRNGStream(s)
  }
  out
}

# One replication: build the problem, run the policy on the replication's
# stream, and keep a compact record. Never throws.
benchmark_task <- function(task, problems, policies, stream, args) {
  saved <- save_rng()
  on.exit(restore_rng(saved))
  RNGkind("L'Ecuyer-CMRG")
  assign(".Random.seed", stream, envir = globalenv())
  t0 <- proc.time()[["elapsed"]]
  rec <- list(problem = task$problem, policy = task$policy, rep = task$rep,
              status = "ok", error = "", trace = NULL, optimum = NULL,
              budget = NA_real_, stop_reason = "", stop_code = "")
  pr <- problems[[task$problem]]
  run <- tryCatch({
    if (!inherits(pr, "bo_problem")) {
      pr <- pr(task$rep)
      if (!inherits(pr, "bo_problem")) {
        stop_costbo(paste0("the problem function returned ",
                           describe_value(pr), ", not a bo_problem"))
      }
    }
    vw <- args$virtual_workers
    bo_optimize(pr, policies[[task$policy]], n_init = args$n_init,
                max_evaluations = args$max_evaluations,
                charge_initial = args$charge_initial, gp_args = args$model,
                progress = FALSE, workers = if (is.null(vw)) 1L else vw,
                clock = if (is.null(vw)) "real" else "simulated",
                budget_rule = if (is.null(args$budget_rule)) "stop" else
                  args$budget_rule,
                budget_prob = if (is.null(args$budget_prob)) 0.9 else
                  args$budget_prob,
                design = if (is.null(args$design)) "sobol" else args$design)
  }, error = function(e) e)
  rec$seconds <- proc.time()[["elapsed"]] - t0
  if (inherits(run, "error")) {
    rec$status <- "failed"
    rec$error <- conditionMessage(run)
    rec$stop_reason <- "error"
    rec$stop_code <- "error"
    return(rec)
  }
  df <- as.data.frame(run)
  # with several information sources only the objective (source 0) counts
  src <- if (is.null(df$source)) rep(NA_integer_, nrow(df)) else df$source
  counts <- df$status == "ok" & (is.na(src) | src == 0L)
  # values in costbo's direction (maximization; see user_value())
  rec$trace <- data.frame(
    cumulative_cost = df$cumulative_cost, value = run$value,
    status = df$status, source = src, counts = counts, phase = df$phase,
    h = if (is.null(df$h)) rep(NA_integer_, nrow(df)) else
      as.integer(df$h),
    control_set = if (is.null(df$control_set)) rep(NA_integer_, nrow(df))
      else as.integer(df$control_set),
    regret = if (!is.null(df$simple_regret)) df$simple_regret else
      if (is.null(run$problem$optimum)) rep(NA_real_, nrow(df)) else
        run$problem$optimum - cummax(ifelse(counts, run$value, -Inf)),
    stringsAsFactors = FALSE)
  # an asynchronous run's finishing times (a sequential run's trace is as
  # it always was, so that caches replay)
  if (!is.null(df$t_done)) rec$trace$t_done <- df$t_done
  rec$trace$regret[!is.finite(rec$trace$regret)] <- NA_real_
  rec$x <- matrix(as.double(run$X), ncol = run$problem$d)
  rec$optimum <- run$problem$optimum
  # a minimized problem's records say so (the others' are as they always
  # were, so that study parts keep their fingerprints)
  if (!problem_maximize(run$problem)) rec$maximize <- FALSE
  rec$budget <- run$budget
  rec$stop_reason <- run$stop_reason
  rec$stop_code <- run$stop_code
  if (isTRUE(run$stop_code %in% c("objective_failed", "cost_failed",
                                  "policy_failed"))) {
    rec$status <- "failed"
    rec$error <- run$stop_reason
  } else if (identical(run$stop_code, "interrupted")) {
    rec$status <- "interrupted"
    rec$error <- "interrupted"
  }
  rec
}

# Run the tasks on the chosen back end, in rounds of one task per worker so
# that an interrupt keeps every finished round.
run_tasks <- function(job, n, backend, workers, cluster, progress, seeds,
                      tasks) {
  out <- vector("list", n)
  not_run <- function(i) {
    list(problem = tasks$problem[i], policy = tasks$policy[i],
         rep = tasks$rep[i], status = "not run", error = "", trace = NULL,
         optimum = NULL, budget = NA_real_, stop_reason = "", stop_code = "",
         seconds = NA_real_)
  }
  size <- 1L
  # progressr steps: from the workers of the future back end, which future
  # relays as replications finish; from here for the others
  p <- progress_progressor(progress, n, environment())
  signal_steps <- function(idx) {
    if (!is.null(p) && backend != "future") {
      for (i in idx) p(message = sprintf("%s  %s  rep %d", out[[i]]$problem,
                                         out[[i]]$policy, out[[i]]$rep))
    }
  }
  apply_round <- function(idx) lapply(idx, job)
  if (backend == "parallel") {
    if (is.null(cluster)) {
      nw <- if (is.null(workers)) getOption("mc.cores", 2L) else workers
      cluster <- if (.Platform$OS.type == "unix") {
        parallel::makeForkCluster(nw)
      } else parallel::makePSOCKcluster(nw)
      on.exit(parallel::stopCluster(cluster), add = TRUE)
    }
    parallel::clusterCall(cluster, attach_costbo)
    size <- length(cluster)
    apply_round <- function(idx) parallel::clusterApplyLB(cluster, idx, job)
  } else if (backend == "future") {
    # future.apply sets the generator of the calling process to the
    # streams' kind (and a sequential plan runs the replications here): the
    # caller's generator is restored, as the other back ends leave it
    saved <- save_rng()
    on.exit(restore_rng(saved), add = TRUE)
    size <- max(1L, as.integer(future::nbrOfWorkers()))
    apply_round <- function(idx) {
      future.apply::future_lapply(idx, if (is.null(p)) job else
                                    progress_job(job, p),
                                  future.seed = seeds[idx],
                                  future.packages = "costbo")
    }
  }
  done <- 0L
  interrupted <- FALSE
  tryCatch({
    while (done < n) {
      idx <- seq.int(done + 1L, min(n, done + size))
      res <- apply_round(idx)
      out[idx] <- res
      done <- max(idx)
      signal_steps(idx)
      progress_replications(out, idx, n, progress)
      if (any(vapply(res, function(r) r$status == "interrupted", NA))) {
        interrupted <- TRUE
        break
      }
    }
  }, interrupt = function(e) interrupted <<- TRUE)
  for (i in which(vapply(out, is.null, NA))) out[[i]] <- not_run(i)
  if (interrupted) {
    done <- sum(vapply(out, function(r) r$status %in% c("ok", "failed"), NA))
    warning(costbo_condition(
      c("costbo_warning_interrupted", "costbo_warning"),
      sprintf("the benchmark was interrupted: %d of %d replications finished",
              done, n), type = "warning"))
  }
  out
}

# Attach costbo on a worker, so that problems built by functions find it.
attach_costbo <- function() {
  if (!("package:costbo" %in% search())) attachNamespace("costbo")
  invisible(TRUE)
}

# The evaluations of a trace that count for the best value: successful
# ones, of the objective itself when there are several sources.
trace_counts <- function(tr) {
  if (is.null(tr$counts)) tr$status == "ok" else tr$counts
}

# The step function of a run's best value (in the problem's direction) and
# regret on a cost grid.
benchmark_curve <- function(rec, grid) {
  tr <- rec$trace
  ok <- trace_counts(tr)
  tol <- 1e-12 * max(1, abs(grid))
  k <- findInterval(grid + tol, tr$cumulative_cost)
  best <- cummax(ifelse(ok, tr$value, -Inf))
  best_at <- ifelse(k > 0L, best[pmax(k, 1L)], NA_real_)
  best_at[!is.finite(best_at)] <- NA_real_
  regret <- ifelse(k > 0L, tr$regret[pmax(k, 1L)], NA_real_)
  data.frame(problem = rec$problem, policy = rec$policy, rep = rec$rep,
             cost = grid, best_value = user_value(rec, best_at),
             regret = regret,
             log10_regret = log10(pmax(regret, 1e-10)),
             stringsAsFactors = FALSE)
}

# Each problem's grid: from 0 to its budget (the largest budget over its
# replications).
benchmark_grids <- function(x) {
  ok <- Filter(function(r) !is.null(r$trace), x$records)
  probs <- unique(x$tasks$problem)
  stats::setNames(lapply(probs, function(p) {
    b <- vapply(Filter(function(r) r$problem == p, ok), `[[`, 0, "budget")
    if (!length(b)) return(NULL)
    seq(0, max(b), length.out = x$n_grid)
  }), probs)
}

#' @rdname bo_benchmark
#' @param x,object A `bo_benchmark`.
#' @param row.names,optional Passed on to [as.data.frame()].
#' @param ... For [c()], further `bo_benchmark`s; for [plot()], graphical
#'   parameters of the panels, which replace the defaults: `main` (one, or
#'   one per panel; default the problem's name), `xlab`, `ylab`, `ylim`,
#'   `col`, `lwd` and `lty` (one, or one per policy), ...; otherwise
#'   unused.
#' @export
as.data.frame.bo_benchmark <- function(x, row.names = NULL, optional = FALSE,
                                       ...) {
  grids <- benchmark_grids(x)
  ok <- Filter(function(r) r$status == "ok", x$records)
  rows <- lapply(ok, function(r) benchmark_curve(r, grids[[r$problem]]))
  df <- if (length(rows)) do.call(rbind, rows) else {
    data.frame(problem = character(), policy = character(), rep = integer(),
               cost = double(), best_value = double(), regret = double(),
               log10_regret = double(), stringsAsFactors = FALSE)
  }
  df <- df[order(match(df$problem, unique(x$tasks$problem)),
                 match(df$policy, unique(x$tasks$policy)), df$rep, df$cost), ,
           drop = FALSE]
  rownames(df) <- check_row_names(row.names, nrow(df))
  df
}

# Whether each problem of a benchmark is maximized, as its user defined it
# (a named logical vector; see problem_maximize()).
benchmark_maximize <- function(x) {
  probs <- unique(x$tasks$problem)
  vapply(probs, function(p) {
    recs <- Filter(function(r) r$problem == p && !is.null(r$trace),
                   x$records)
    !length(recs) || problem_maximize(recs[[1L]])
  }, NA)
}

# One row per replication.
benchmark_replications <- function(x) {
  rows <- lapply(x$records, function(r) {
    tr <- r$trace
    ok <- if (is.null(tr)) logical() else trace_counts(tr) &
      tr$cumulative_cost <= r$budget * (1 + 1e-12)
    best <- if (any(ok)) max(tr$value[ok]) else NA_real_
    reg <- if (any(ok)) utils::tail(tr$regret[ok], 1L) else NA_real_
    data.frame(problem = r$problem, policy = r$policy, rep = r$rep,
               status = r$status, error = r$error,
               n_evaluations = if (is.null(tr)) 0L else nrow(tr),
               spent = if (is.null(tr)) NA_real_ else
                 max(c(0, tr$cumulative_cost)),
               best_value = user_value(r, best), regret = reg,
               seconds = r$seconds, stop_reason = r$stop_reason,
               stop_code = if (is.null(r$stop_code)) NA_character_ else
                 r$stop_code,
               clock = if (is.null(tr$t_done) || all(is.na(tr$t_done)))
                 NA_real_ else max(tr$t_done, na.rm = TRUE),
               stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

# One row per evaluation of every replication, with the evaluated point in
# columns x1, x2, ... (as many as the largest dimension; NA beyond a
# problem's own, and in records made before points were kept).
benchmark_evaluations <- function(x) {
  recs <- Filter(function(r) NROW(r$trace) > 0L, x$records)
  D <- max(0L, vapply(recs, function(r) NCOL(r$x), 0L))
  rows <- lapply(recs, function(r) {
    tr <- r$trace
    # records made before a column existed get NA in it
    for (k in setdiff(c("phase", "source", "h", "control_set", "t_done"),
                      names(tr))) {
      tr[[k]] <- rep(NA, nrow(tr))
    }
    X <- matrix(NA_real_, nrow(tr), D,
                dimnames = list(NULL, paste0("x", seq_len(D))))
    if (!is.null(r$x)) X[, seq_len(ncol(r$x))] <- r$x
    tr$value <- user_value(r, tr$value)
    data.frame(problem = r$problem, policy = r$policy, rep = r$rep,
               tr[, c("cumulative_cost", "value", "status", "phase",
                      "source", "h", "control_set", "t_done")], X,
               stringsAsFactors = FALSE)
  })
  if (length(rows)) do.call(rbind, rows) else NULL
}

#' @export
print.bo_benchmark <- function(x, ...) {
  reps <- x$replications
  cat(sprintf("costbo benchmark: %d problem(s) x %d polic%s x %d replication(s), %s back end\n",
              length(unique(x$tasks$problem)), length(unique(x$tasks$policy)),
              if (length(unique(x$tasks$policy)) == 1L) "y" else "ies",
              length(x$reps), x$backend))
  cat(sprintf("  problems: %s\n", paste(unique(x$tasks$problem), collapse = ", ")))
  cat(sprintf("  policies: %s\n", paste(unique(x$tasks$policy), collapse = ", ")))
  if (!is.null(x$provenance)) {
    cat(sprintf("  made by costbo %s (sources %s)\n", x$provenance$costbo,
                benchmark_hash(x)))
  }
  tab <- table(factor(reps$status, c("ok", "failed", "interrupted", "not run")))
  cat(sprintf("  replications: %s\n",
              paste(sprintf("%d %s", tab[tab > 0], names(tab)[tab > 0]),
                    collapse = ", ")))
  bad <- reps[reps$status == "failed", , drop = FALSE]
  for (i in seq_len(min(nrow(bad), 5L))) {
    cat(sprintf("  failed: %s / %s / rep %d: %s\n", bad$problem[i],
                bad$policy[i], bad$rep[i], bad$error[i]))
  }
  if (nrow(bad) > 5L) cat(sprintf("  ... and %d more failed\n", nrow(bad) - 5L))
  invisible(x)
}

#' @rdname bo_benchmark
#' @param level Confidence level of the intervals and bands.
#' @return `summary()`: a data frame with one row per problem and policy:
#'   the number of successful replications (`n`) and of failed ones, the
#'   mean final simple regret (at the budget) with its `level` t-interval,
#'   its median, and the mean final log10 regret with its interval (the
#'   best value instead when the problem's optimum is unknown).
#' @export
summary.bo_benchmark <- function(object, level = 0.95, ...) {
  level <- check_number(level, min = 0, max = 1, min_open = TRUE)
  df <- as.data.frame(object)
  reps <- object$replications
  last <- df[df$cost == stats::ave(df$cost, df$problem, FUN = max), ,
             drop = FALSE]
  keys <- unique(object$tasks[, c("problem", "policy")])
  rows <- lapply(seq_len(nrow(keys)), function(i) {
    p <- keys$problem[i]
    q <- keys$policy[i]
    s <- last[last$problem == p & last$policy == q, , drop = FALSE]
    has_regret <- any(!is.na(s$regret))
    ci <- mean_ci(if (has_regret) s$regret else s$best_value, level)
    cl <- mean_ci(s$log10_regret, level)
    data.frame(problem = p, policy = q, n = nrow(s),
               failed = sum(reps$problem == p & reps$policy == q &
                              reps$status == "failed"),
               measure = if (has_regret) "regret" else "best_value",
               mean = ci[1L], lower = ci[2L], upper = ci[3L],
               median = if (nrow(s)) stats::median(
                 if (has_regret) s$regret else s$best_value,
                 na.rm = TRUE) else NA_real_,
               mean_log10_regret = cl[1L], log10_lower = cl[2L],
               log10_upper = cl[3L], stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  attr(out, "level") <- level
  class(out) <- c("summary.bo_benchmark", "data.frame")
  out
}

#' @export
print.summary.bo_benchmark <- function(x, digits = 3L, ...) {
  digits <- check_digits(digits)
  cat(sprintf("Final simple regret at the budget (mean, %g%% t-interval, median)\n",
              100 * attr(x, "level")))
  y <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  num <- vapply(y, is.double, NA)
  y[num] <- lapply(y[num], signif, digits = digits)
  print(y, row.names = FALSE)
  invisible(x)
}

# Mean and its t-interval, NA where undefined.
mean_ci <- function(v, level) {
  v <- v[is.finite(v)]
  n <- length(v)
  if (n == 0L) return(c(NA_real_, NA_real_, NA_real_))
  m <- mean(v)
  if (n == 1L) return(c(m, NA_real_, NA_real_))
  h <- stats::qt(0.5 + level / 2, n - 1L) * stats::sd(v) / sqrt(n)
  c(m, m - h, m + h)
}

#' @rdname bo_benchmark
#' @param y What to plot: `"log10_regret"` (default when the optimum is
#'   known), `"regret"` or `"best_value"` (in each problem's direction: the
#'   smallest value of a problem with `maximize = FALSE`).
#' @param problems Names of the problems to plot (default all).
#' @param legend Draw a legend of the policies (those drawn) in the first
#'   panel?
#' @return `plot()`: the plotted curves, invisibly: a data frame with one
#'   row per problem, policy and grid cost, with `measure`, `mean` and the
#'   `level` t-interval (`lower`, `upper`) over the replications.
#' @export
plot.bo_benchmark <- function(x, y = c("log10_regret", "regret", "best_value"),
                              level = 0.95, problems = NULL, legend = TRUE,
                              ...) {
  call <- sys.call()
  y <- check_choice(y, c("log10_regret", "regret", "best_value"))
  level <- check_number(level, min = 0, max = 1, min_open = TRUE)
  legend <- check_flag(legend)
  dots <- check_dots(list(...), call)
  df <- as.data.frame(x)
  if (!nrow(df)) stop_costbo("the benchmark has no successful replication to plot")
  all_probs <- unique(x$tasks$problem)
  if (is.null(problems)) problems <- all_probs
  if (!(is.character(problems) && length(problems) >= 1L &&
        all(problems %in% all_probs))) {
    stop_arg("problems", sprintf("names of the benchmark's problems (%s)",
                                 paste0("\"", all_probs, "\"", collapse = ", ")),
             problems)
  }
  pols <- unique(x$tasks$policy)
  cols <- if (is.null(dots$col)) {
    grDevices::hcl.colors(max(length(pols), 2L), "Dark 3")[seq_along(pols)]
  } else rep_len(dots$col, length(pols))
  lwd <- if (is.null(dots$lwd)) 2 else dots$lwd
  lty <- rep_len(if (is.null(dots$lty)) 1 else dots$lty, length(pols))
  up <- benchmark_maximize(x)
  np <- length(problems)
  nc <- ceiling(sqrt(np))
  old <- graphics::par(mfrow = c(ceiling(np / nc), nc),
                       mar = c(3.5, 3.8, 2, 0.8), mgp = c(2.2, 0.7, 0))
  on.exit(graphics::par(old))
  out <- list()
  for (k in seq_along(problems)) {
    p <- problems[k]
    d <- df[df$problem == p, , drop = FALSE]
    what <- if (y != "best_value" && all(is.na(d$regret))) "best_value" else y
    curves <- lapply(pols, function(q) {
      e <- d[d$policy == q, , drop = FALSE]
      if (!nrow(e)) return(NULL)
      g <- sort(unique(e$cost))
      st <- vapply(g, function(cc) mean_ci(e[[what]][e$cost == cc], level),
                   numeric(3))
      data.frame(problem = p, policy = q, measure = what, cost = g,
                 mean = st[1L, ], lower = st[2L, ], upper = st[3L, ],
                 stringsAsFactors = FALSE)
    })
    drawn <- !vapply(curves, is.null, NA)
    out <- c(out, curves[drawn])
    rng <- range(unlist(lapply(curves, function(cv) {
      c(cv$mean, cv$lower, cv$upper)
    })), na.rm = TRUE, finite = TRUE)
    if (!all(is.finite(rng))) rng <- c(0, 1)
    ylab <- switch(what, log10_regret = "log10 simple regret",
                   regret = "simple regret",
                   best_value = if (up[[p]]) "best value" else
                     "best value (minimized)")
    frame <- dots[setdiff(names(dots), c(point_pars, line_pars, "main",
                                         "xlab", "ylab"))]
    frame$main <- panel_par(dots, "main", k, p)
    frame$xlab <- panel_par(dots, "xlab", k, "cost spent")
    frame$ylab <- panel_par(dots, "ylab", k, ylab)
    plot_frame(list(xlim = range(d$cost), ylim = rng), frame)
    for (j in which(drawn)) {
      cv <- curves[[j]]
      band <- is.finite(cv$lower) & is.finite(cv$upper)
      if (sum(band) > 1L) {
        lo <- step_xy(cv$cost[band], cv$lower[band])
        hi <- step_xy(cv$cost[band], cv$upper[band])
        graphics::polygon(c(lo$x, rev(hi$x)), c(lo$y, rev(hi$y)),
                          col = grDevices::adjustcolor(cols[j], 0.2),
                          border = NA)
      }
      graphics::lines(cv$cost, cv$mean, col = cols[j], lwd = lwd,
                      lty = lty[j], type = "s")
    }
    if (legend && k == 1L) {
      shown <- pols %in% unique(df$policy[df$problem %in% problems])
      leg <- list(legend = pols[shown], col = cols[shown], lwd = lwd,
                  lty = lty[shown], bty = "n", cex = 0.8)
      pts <- do.call(rbind, curves[drawn])
      do.call(graphics::legend,
              c(list(x = legend_corner(leg, rep(pts$cost, 3L),
                                       c(pts$mean, pts$lower, pts$upper))),
                leg))
    }
  }
  res <- do.call(rbind, out)
  rownames(res) <- NULL
  invisible(res)
}

#' @rdname bo_benchmark
#' @return `c()`: one `bo_benchmark` with the replications of all, which
#'   must share `seed` and `n_grid`, have no problem, policy and
#'   replication in common, and have been made by the same build of costbo
#'   (the same `source_hash`, see [costbo_build()]). Its `provenance` keeps
#'   the calls and dates of all.
#' @export
c.bo_benchmark <- function(...) {
  xs <- list(...)
  if (!all(vapply(xs, inherits, NA, "bo_benchmark"))) {
    stop_arg("...", "bo_benchmark objects", xs[[which(!vapply(
      xs, inherits, NA, "bo_benchmark"))[1L]]])
  }
  if (length(unique(vapply(xs, function(b) b$seed, 0L))) > 1L ||
      length(unique(vapply(xs, function(b) b$n_grid, 0L))) > 1L) {
    stop_arg("...", "benchmarks with the same seed and n_grid", xs,
             show = FALSE)
  }
  tasks <- do.call(rbind, lapply(xs, function(b) b$tasks))
  if (anyDuplicated(tasks)) {
    stop_arg("...", "benchmarks with no replication in common", xs,
             show = FALSE)
  }
  hashes <- vapply(xs, benchmark_hash, "")
  if (length(unique(hashes)) > 1L) {
    stop_arg("...", sprintf(
      "benchmarks made by one build of costbo, not by builds with source hashes %s",
      paste(unique(hashes), collapse = ", ")), xs, show = FALSE)
  }
  backends <- unique(vapply(xs, function(b) b$backend, ""))
  prov <- xs[[1L]]$provenance
  if (!is.null(prov)) {
    prov$call <- lapply(xs, function(b) b$provenance$call)
    prov$date <- vapply(xs, function(b) {
      if (is.null(b$provenance$date)) NA_character_ else b$provenance$date
    }, "")
  }
  new_benchmark(do.call(c, lapply(xs, function(b) b$records)), tasks,
                xs[[1L]]$seed,
                sort(unique(unlist(lapply(xs, function(b) b$reps)))),
                xs[[1L]]$n_grid, paste(backends, collapse = "+"),
                sum(vapply(xs, function(b) b$seconds, 0)), prov)
}
