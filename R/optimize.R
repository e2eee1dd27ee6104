# The optimization loop and the budget accounting.

#' Run a cost-aware Bayesian optimization
#'
#' Evaluates an initial design, then repeats: refit the models (warm-started
#' from the previous fit), ask the policy for the next point, evaluate it,
#' record it, until the budget is spent.
#'
#' @section Budget accounting:
#' The budget is for the optimization phase: by default the initial design's
#' costs are recorded but not charged (as in the papers' reference
#' implementations; `charge_initial = TRUE` charges them). With a known cost
#' the run stops when the next proposed point would not fit in the remaining
#' budget, so every evaluation is within budget. With a measured cost the
#' price is only known once paid: the evaluation that crosses the budget is
#' recorded, marked `within_budget = FALSE`, and ends the run (the reporting
#' rule of Astudillo et al. 2021).
#'
#' @section Models:
#' Before every proposal the objective's GP (and, for a measured cost, the
#' GP of the log cost) is refitted by [gp_fit()] to all successful
#' evaluations, warm-started from the previous fit. The problem says whether
#' its evaluations are deterministic (the default) or noisy (`noisy` in
#' [bo_problem()]; [test_problem()] and the other test problems declare
#' their own). A deterministic objective, and every measured cost, is
#' modelled with the noise variance held in \[1e-4, 1e-3\] of the variance
#' of the observations, as in the reference implementation of Astudillo et
#' al. (2021): the GP then (nearly) interpolates and cannot explain a lone
#' good observation as noise, which would flatten its posterior until every
#' expected improvement vanished. A noisy objective's noise is estimated,
#' and the incumbent of the expected-improvement family (EI and its
#' cost-aware variants, B-MS-EI's tree, the rollouts and PBGI's stopping
#' rule) is then the largest posterior mean at the evaluated points
#' (Picheny et al. 2013) instead of the largest noisy observation. `model`
#' overrides these defaults (see its description). The reported best value
#' and regret are the best observed values either way.
#'
#' @section Control sets:
#' For a problem with control sets ([bo_problem()] with `control_sets`) and
#' a policy for them ([policy_ucb_cvs()] and its relatives), the initial
#' design is made of full queries (recorded at the largest control-set cost),
#' and each step the policy chooses a control set and a control partial
#' query; the other inputs are drawn from their distributions, the objective
#' is evaluated at the realized full query and the step costs the set's
#' cost. The run stops when the chosen control set no longer fits in the
#' remaining budget (Tay et al. 2023, Alg. 1, step 7). The chosen set and the
#' realized random inputs are recorded with every evaluation.
#'
#' @section Information sources:
#' For a problem with several information sources ([bo_problem()] with
#' `sources`), every point of the initial design is evaluated at every
#' source (so `n_init` points give `n_init * sources` evaluations), and each
#' step the policy chooses a point and a source; the step costs that
#' source's cost, and the run stops when the chosen pair no longer fits in
#' the remaining budget. The source is recorded with every evaluation
#' (`source` in [as.data.frame()]); the best value, the regret and the
#' progress plot count evaluations of source 0 (the objective) only.
#'
#' @section Settings checked before paying:
#' Before the first evaluation, the run fits its models and evaluates its
#' policy once on synthetic data of the problem's kind (restoring the
#' random-number generator, so the run itself is unchanged): a `model`
#' setting that [gp_fit()] rejects, or a policy that does not suit the
#' problem (e.g. [policy_kg()] with a cost function written in R), is an
#' error naming `model`, `model$cost` or `policy` before anything is paid,
#' raised by the same code that would reject it during the run.
#'
#' @section Failures and interruptions:
#' An error, a missing or infinite value from the objective, or a known
#' cost function that fails or returns anything but one positive number, is
#' recorded with its point and message (a point whose known cost cannot be
#' worked out is not evaluated: its cost, and so whether it fits in the
#' budget, is unknown). A valid value measured with a missing or invalid
#' cost is kept (status `"ok"`) with the cost `NA`, not charged, and
#' `cost_valid = FALSE` in [as.data.frame()]; a valid measured cost
#' reported with an invalid value is kept and charged. With `on_error =
#' "stop"` the run ends at any of these and returns everything evaluated so
#' far; with `"skip"` it continues (a policy that proposes a failed point
#' again ends the run). A failed evaluation is charged its cost when the
#' cost is known.
#'
#' Failures inform the policy: the objective's model takes every failed
#' point with the worst successful value observed (of the same source,
#' with information sources). This is the idea of Forrester, Sóbester and
#' Keane (2006) for optimization with missing data, imputing a failed
#' evaluation with a penalised value so that the surrogate steers away
#' from it, with the simplest penalised value (they penalise the model's
#' prediction instead); it needs no second model and works through the
#' model for every policy, finite domains included. The model's
#' mean near a failure is then at the bottom of the observed range and its
#' uncertainty there small, so no policy proposes that point, or points
#' near it, again, and a region where the objective fails stops absorbing
#' the budget (bench/failures.R measures this on Branin failing on half its
#' box), in ask/tell sessions too. A run without failures is unchanged.
#'
#' An interrupt (Ctrl-C), also during long C computations, or an error
#' inside the policy, ends the run cleanly with all evaluations kept.
#'
#' @section Reproducibility and checkpoints:
#' All randomness comes from R's generator: with `seed` (or after
#' [set.seed()]) two runs are identical. With `checkpoint = "file.rds"` the
#' run, including the generator's state, is saved after every evaluation;
#' [bo_resume()] continues it exactly as if it had never stopped, also when
#' it stopped during the initial design (the missing initial points are
#' evaluated first). A checkpoint that cannot be written (a full disk, a
#' removed directory) does not end the run: a warning (class
#' `costbo_warning_checkpoint`) is given at the first failure, the run goes
#' on, and the failed writes are recorded in the run (`checkpoint_error`,
#' shown by [print()] and [summary()]).
#'
#' The checkpoint file (format version 2) carries an MD5 checksum of its
#' content, so that a damaged, truncated or wrong file is refused by
#' [bo_resume()] with an error naming it instead of resuming a corrupted
#' run.
#'
#' @references
#' Forrester, A. I. J., Sóbester, A. and Keane, A. J. (2006). Optimization
#' with missing data. *Proceedings of the Royal Society A* 462, 935--945.
#'
#' @param problem A [bo_problem()] (see also [test_problem()]).
#' @param policy A policy, e.g. [policy_ei_pu()] (see [bo_policy]).
#' @param n_init Size of the initial design: scrambled Sobol points (random
#'   candidates for a finite domain). Default `2 * (d + 1)`, or 0 with
#'   `initial`.
#' @param initial Optional data frame of points already evaluated (columns
#'   `x1`, ..., `xd`, `value`, and `cost` for a measured cost); they form
#'   (part of) the initial design.
#' @param seed Optional seed for [set.seed()].
#' @param max_evaluations Optional cap on the number of evaluations after the
#'   initial design.
#' @param charge_initial Charge the initial design's cost to the budget?
#' @param on_error `"stop"` or `"skip"`: what to do when the objective fails.
#' @param pandora_stop Also stop when the Pandora stopping rule fires (the
#'   incumbent, see the section on models, is at least the largest Gittins
#'   index; PBGI policies only), as in the cost-per-sample setting of Xie et
#'   al. (2024).
#' @param progress Show progress (default in interactive sessions).
#' @param checkpoint Optional file to save the run to after every evaluation.
#' @inheritParams bo_session
#' @return A `bo_run`: use [summary()], [as.data.frame()] and [plot()] on it.
#'   Why the run stopped is in `stop_reason`, a sentence for people, and in
#'   `stop_code`, a code for programs: `"budget"` (the budget is spent, or
#'   the next point or control set would not fit in it), `"max_evaluations"`,
#'   `"pandora"` (the Pandora stopping rule, with `pandora_stop = TRUE`),
#'   `"policy_failed"` (the policy raised an error), `"objective_failed"`
#'   and `"cost_failed"` (an evaluation of the objective or of the cost
#'   function failed, with `on_error = "stop"`), `"repeated_failure"` (the
#'   policy proposed again a point that had failed) or `"interrupted"`.
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 6)
#' run <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
#' run
#' head(as.data.frame(run))
#' @export
bo_optimize <- function(problem, policy, n_init = NULL, initial = NULL,
                        seed = NULL, max_evaluations = NULL,
                        charge_initial = FALSE, on_error = c("stop", "skip"),
                        pandora_stop = FALSE, progress = interactive(),
                        checkpoint = NULL, model = list()) {
  call <- sys.call()
  check_problem_policy(problem, policy, call)
  n_init <- if (is.null(n_init)) {
    if (is.null(initial)) 2L * (problem$d + 1L) else 0L
  } else check_count(n_init)
  if (!is.null(seed)) seed <- check_count(seed)
  if (!is.null(max_evaluations)) {
    max_evaluations <- check_count(max_evaluations)
  }
  charge_initial <- check_flag(charge_initial)
  on_error <- check_choice(on_error, c("stop", "skip"))
  pandora_stop <- check_flag(pandora_stop)
  progress <- check_flag(progress)
  if (!is.null(checkpoint) && !(is.character(checkpoint) &&
                                length(checkpoint) == 1L && nzchar(checkpoint))) {
    stop_arg("checkpoint", "a file name", checkpoint)
  }
  if (!is.null(problem$candidates) &&
      n_init > nrow(problem$candidates)) {
    stop_arg("n_init", sprintf("at most the number of candidates (%d)",
                               nrow(problem$candidates)), n_init)
  }
  model <- check_model_args(model)
  if (!is.null(seed)) set.seed(seed)
  state <- new_state(problem, policy, charge_initial, model)
  if (!is.null(initial)) state <- state_initial(state, initial, call)
  ctl <- list(max_evaluations = max_evaluations, on_error = on_error,
              pandora_stop = pandora_stop, progress = progress,
              checkpoint = checkpoint)
  if (n_init + sum(state_ok(state)) < 2L && is.null(problem$prior)) {
    stop_arg("n_init", "such that the initial design has at least 2 points",
             n_init)
  }
  if (n_init + sum(state_ok(state)) < 1L) {
    # the explicit prior is conditioned on the evaluated points: gp_finite()
    # needs one at least
    stop_arg("n_init", paste("at least 1 with an explicit prior and no",
                             "`initial` points"), n_init)
  }
  check_run_ready(state, call)
  state$memory <- policy_init(policy, state)
  state$started <- Sys.time()
  state <- run_initial(state, n_init, ctl)
  run_loop(state, ctl)
}

#' Resume a run from its checkpoint
#'
#' Continues a run saved by [bo_optimize()] with `checkpoint = file`, from
#' where it stopped (for instance after a crash, an interrupt or a time
#' limit), exactly as if it had never stopped: the random-number generator's
#' state is restored from the file, and a run stopped during its initial
#' design evaluates the rest of it first. It keeps checkpointing to the same
#' file.
#'
#' The file is checked first: its format version and the MD5 checksum of
#' its content. A truncated or damaged file, or one that is not a
#' checkpoint, is an error (class `costbo_error_arg`) naming the file.
#' Checkpoints written by costbo before checksums were added (format
#' version 1) cannot be checked: they are read with a warning (class
#' `costbo_warning_checkpoint`) rather than refused, so that runs saved
#' then can still be finished.
#'
#' @param checkpoint The checkpoint file.
#' @param problem Optionally the problem again, to re-attach an objective
#'   whose code refers to objects that are not saved with it (functions of
#'   the global environment, connections to instruments). It must have the
#'   same domain, cost type and budget as the saved one.
#' @param max_evaluations Optionally a new cap on the number of evaluations
#'   after the initial design.
#' @param progress Show progress?
#' @return A `bo_run`.
#' @family runs
#' @examples
#' f <- tempfile(fileext = ".rds")
#' prob <- test_problem("branin", budget = 6)
#' part <- bo_optimize(prob, policy_ei(), seed = 1, max_evaluations = 2,
#'                     checkpoint = f, progress = FALSE)
#' full <- bo_resume(f, max_evaluations = 6, progress = FALSE)
#' nrow(as.data.frame(full))
#' unlink(f)
#' @export
bo_resume <- function(checkpoint, problem = NULL, max_evaluations = NULL,
                      progress = interactive()) {
  call <- sys.call()
  if (!(is.character(checkpoint) && length(checkpoint) == 1L &&
        !is.na(checkpoint) && file.exists(checkpoint))) {
    stop_arg("checkpoint", "an existing checkpoint file", checkpoint)
  }
  saved <- gp_upgrade_checkpoint(read_checkpoint(checkpoint, call))
  ctl <- saved$ctl
  if (!is.null(max_evaluations)) {
    ctl$max_evaluations <- check_count(max_evaluations)
  }
  ctl$progress <- check_flag(progress)
  ctl$checkpoint <- checkpoint
  state <- saved$state
  if (!is.null(problem)) {
    old <- state$problem
    same <- inherits(problem, "bo_problem") && problem$d == old$d &&
      isTRUE(all.equal(problem$lower, old$lower)) &&
      isTRUE(all.equal(problem$upper, old$upper)) &&
      identical(problem$cost_type, old$cost_type) &&
      isTRUE(all.equal(problem$budget, old$budget))
    if (!same) {
      stop_arg("problem", paste("a bo_problem with the saved problem's domain,",
                                "cost type and budget"), problem)
    }
    state$problem <- problem
  }
  assign(".Random.seed", saved$random_seed, envir = globalenv())
  state$stop_reason <- NULL
  state$stop_code <- NULL
  # a run interrupted during its initial design completes it first
  state <- continue_initial(state, ctl)
  run_loop(state, ctl)
}

# Evaluate the initial design. The design (points, and sources with
# information sources) is drawn first and kept in the state with the number
# of its evaluations done, so that a run interrupted during the design
# resumes it from its checkpoint where it stopped (continue_initial()).
run_initial <- function(state, n_init, ctl) {
  pr <- state$problem
  if (n_init == 0L) return(state)
  pts <- if (!is.null(pr$candidates)) {
    pr$candidates[sample.int(nrow(pr$candidates), n_init), , drop = FALSE]
  } else {
    sweep(sweep(sobol_points(n_init, pr$d), 2L, pr$upper - pr$lower, "*"),
          2L, pr$lower, "+")
  }
  # a multi-source problem evaluates every initial point at every source
  sources <- if (is_miso(pr)) seq_len(pr$n_sources) - 1L else NA_integer_
  ns <- length(sources)
  state$initial_plan <- list(
    x = pts[rep(seq_len(n_init), each = ns), , drop = FALSE],
    source = rep(sources, times = n_init), done = 0L)
  continue_initial(state, ctl)
}

# Evaluate the points of the initial design not evaluated yet.
continue_initial <- function(state, ctl) {
  plan <- state$initial_plan
  if (is.null(plan) || plan$done >= nrow(plan$x)) return(state)
  pr <- state$problem
  tryCatch({
    for (k in seq.int(plan$done + 1L, nrow(plan$x))) {
      x <- plan$x[k, ]
      s <- plan$source[k]
      ev <- evaluate_point(pr, x, source = s)
      state <- state_record(state, x, ev$value, ev$cost, "initial",
                            status = ev$status, message = ev$message,
                            eval_time = ev$time, source = s)
      state$initial_plan$done <- k
      state <- save_checkpoint(state, ctl)
      if (ev$failed && ctl$on_error == "stop") {
        state <- stop_run(state, failure_code(ev),
                          failure_reason(ev, initial = TRUE))
        return(state)
      }
    }
    state
  }, interrupt = function(e) {
    stop_run(state, "interrupted", "interrupted")
  })
}

# The cost of evaluating x (at `source` with information sources), worked
# out before paying for the evaluation: list(cost, message), the cost NA
# with a message when the cost function fails or returns anything but one
# positive number. A measured cost is not known in advance (NA, no message).
point_cost <- function(problem, x, source = NA_integer_) {
  if (problem$cost_type == "measured") {
    return(list(cost = NA_real_, message = ""))
  }
  out <- tryCatch(if (is.na(source)) problem$cost(x) else
    miso_cost(problem, x, source), error = function(e) e)
  if (inherits(out, "error")) {
    return(list(cost = NA_real_, message = paste("the cost function failed:",
                                                 conditionMessage(out))))
  }
  if (!(is.numeric(out) && length(out) == 1L && !is.na(out) &&
        is.finite(out) && out > 0)) {
    return(list(cost = NA_real_, message = sprintf(
      "the cost function returned %s, not a positive number",
      describe_value(unname(out)))))
  }
  list(cost = as.double(out), message = "")
}

# Evaluate x (at `source`): its known cost first (when the cost cannot be
# worked out nothing is paid: the point is recorded as failed), then the
# objective. `cost` is the known cost when the caller has worked it out.
evaluate_point <- function(problem, x, cost = NULL, source = NA_integer_) {
  if (is.null(cost)) {
    pc <- point_cost(problem, x, source)
    if (nzchar(pc$message)) return(cost_failure(pc$message))
    cost <- pc$cost
  }
  evaluate_objective(problem, x, cost, if (is.na(source)) NULL else source)
}

# The record of a point whose known cost could not be worked out.
cost_failure <- function(message) {
  list(value = NA_real_, cost = NA_real_, status = "error",
       message = message, time = 0, cost_valid = FALSE, failed = TRUE,
       cost_function = TRUE)
}

# Stop the run: `code` says why for programs (one of the codes documented
# in bo_optimize(): "budget", "max_evaluations", "pandora", "policy_failed",
# "objective_failed", "cost_failed", "repeated_failure", "interrupted"),
# `reason` for people.
stop_run <- function(state, code, reason) {
  state$stop_code <- code
  state$stop_reason <- reason
  state
}

# The stop code of a run that stops on the failed evaluation `ev`.
failure_code <- function(ev) {
  if (isTRUE(ev$cost_function)) "cost_failed" else "objective_failed"
}

# Why a run stops on the failed evaluation `ev` (at an initial point or not).
failure_reason <- function(ev, initial = FALSE) {
  if (isTRUE(ev$cost_function)) {
    return(if (initial) paste(ev$message, "(at an initial point)") else
      ev$message)
  }
  if (initial) {
    sprintf("the objective failed at an initial point: %s", ev$message)
  } else paste("the objective failed:", ev$message)
}

# Call the objective at x (at `source` for a multi-source problem) under
# tryCatch; `cost` is the known cost (NA for a measured one). Returns
# list(value, cost, status, message, time, cost_valid, failed): `status` is
# "ok" when the value is a finite number; with a measured cost, a valid
# value reported with a missing or invalid cost is kept ("ok", the cost NA
# and `cost_valid` FALSE) and a valid cost reported with an invalid value
# is kept (and charged); `failed` says whether anything was wrong.
evaluate_objective <- function(problem, x, cost = NA_real_, source = NULL) {
  t0 <- proc.time()[["elapsed"]]
  out <- tryCatch(if (is.null(source)) problem$objective(x) else
    problem$objective(x, source), error = function(e) e)
  time <- proc.time()[["elapsed"]] - t0
  known <- problem$cost_type != "measured"
  result <- function(value, cost, message) {
    ok <- !is.na(value)
    list(value = value, cost = cost, status = if (ok) "ok" else "error",
         message = message, time = time, cost_valid = !is.na(cost),
         failed = !ok || is.na(cost))
  }
  if (inherits(out, "error")) {
    return(result(NA_real_, if (known) cost else NA_real_,
                  conditionMessage(out)))
  }
  if (known) {
    if (!(is.numeric(out) && length(out) == 1L && is.finite(out))) {
      return(result(NA_real_, cost, sprintf(
        "the objective returned %s, not a finite number", describe_value(out))))
    }
    return(result(as.double(out), cost, ""))
  }
  v <- if (is.list(out)) out$value else if (is.numeric(out)) out["value"]
  cst <- if (is.list(out)) out$cost else if (is.numeric(out)) out["cost"]
  v_ok <- is.numeric(v) && length(v) == 1L && is.finite(v)
  c_ok <- is.numeric(cst) && length(cst) == 1L && is.finite(cst) && cst > 0
  msg <- c(if (!v_ok) "the objective did not return a finite `value`",
           if (!c_ok) sprintf("the objective returned the cost %s, not a positive number",
                              describe_value(unname(cst))))
  if (v_ok && !c_ok) msg <- paste0(msg, " (the value is kept)")
  if (!v_ok && c_ok) msg <- paste0(msg, " (its cost is kept)")
  result(if (v_ok) as.double(v) else NA_real_,
         if (c_ok) as.double(cst) else NA_real_, paste(msg, collapse = "; "))
}

# Save the run after an evaluation. A checkpoint that cannot be written
# never ends the run: the failure is recorded in the state
# (`checkpoint_error`: the number of failed writes, the last message and
# the number of evaluations then), with a warning at the first failure.
save_checkpoint <- function(state, ctl) {
  if (is.null(ctl$checkpoint)) return(state)
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    stats::runif(1)
  }
  saved <- list(state = state, ctl = ctl,
                random_seed = get(".Random.seed", envir = globalenv()))
  err <- tryCatch({
    write_checkpoint(saved, ctl$checkpoint)
    NULL
  }, error = function(e) conditionMessage(e),
  warning = function(w) conditionMessage(w))
  if (!is.null(err)) {
    first <- is.null(state$checkpoint_error)
    state$checkpoint_error <- list(
      n = if (first) 1L else state$checkpoint_error$n + 1L, message = err,
      evaluations = length(state$value))
    if (first) {
      warn_checkpoint(sprintf(paste("the checkpoint \"%s\" could not be",
                                    "written (%s); the run goes on and",
                                    "keeps its evaluations"),
                              ctl$checkpoint, err))
    }
  }
  state
}

# Checkpoint files (format version 2): a text header of four lines, the
# magic line "costbo checkpoint", "version 2", "md5 <32 hex digits>" and
# "bytes <n>", then the n bytes of the gzip-compressed serialization of
# list(state, ctl, random_seed); the MD5 sum is that of those n bytes, so
# that any changed or missing byte (a flipped bit, a truncated or
# concatenated file) is detected. Written to `path`.tmp and renamed, so a
# crash while writing leaves the previous checkpoint intact.
checkpoint_magic <- "costbo checkpoint"
checkpoint_version <- 2L

write_checkpoint <- function(saved, path) {
  payload <- memCompress(serialize(saved, NULL), "gzip")
  header <- sprintf("%s\nversion %d\nmd5 %s\nbytes %.0f\n", checkpoint_magic,
                    checkpoint_version, md5_raw(payload), length(payload))
  tmp <- paste0(path, ".tmp")
  con <- file(tmp, "wb")
  on.exit(close(con))
  writeBin(c(charToRaw(header), payload), con)
  close(con)
  on.exit()
  if (!file.rename(tmp, path)) {
    stop_costbo(sprintf("cannot rename \"%s\" to \"%s\"", tmp, path))
  }
  invisible(path)
}

# The MD5 sum of a raw vector (tools::md5sum() reads files only).
md5_raw <- function(bytes) {
  f <- tempfile("costbo-md5-")
  on.exit(unlink(f))
  writeBin(bytes, f)
  unname(tools::md5sum(f))
}

# Read and verify a checkpoint: list(state, ctl, random_seed). Any damage
# is a costbo_error_arg naming `checkpoint` and the file. Files of format
# version 1 (costbo before checksums: an RDS of list(format = "costbo
# checkpoint", ...)) cannot be verified; they are read with a warning.
read_checkpoint <- function(path, call = sys.call(-1L)) {
  bad <- function(why) {
    stop_arg("checkpoint", sprintf("an intact costbo checkpoint, but \"%s\" %s",
                                   path, why), show = FALSE, call = call)
  }
  size <- file.size(path)
  bytes <- tryCatch(readBin(path, "raw", n = size),
                    error = function(e) bad("cannot be read"))
  magic <- charToRaw(paste0(checkpoint_magic, "\n"))
  if (length(bytes) < length(magic) ||
      !identical(bytes[seq_along(magic)], magic)) {
    return(read_checkpoint_v1(path, bad))
  }
  nl <- which(bytes == as.raw(10L))
  if (length(nl) < 4L || nl[4L] > 200L) bad("has a damaged header")
  head <- as.integer(bytes[seq_len(nl[4L])])
  if (any((head < 32L | head > 126L) & head != 10L)) {
    bad("has a damaged header")
  }
  lines <- tryCatch(strsplit(rawToChar(bytes[seq_len(nl[4L] - 1L)]), "\n",
                             fixed = TRUE)[[1L]],
                    error = function(e) bad("has a damaged header"))
  field <- function(i, key, pattern) {
    v <- sub(paste0("^", key, " "), "", lines[i])
    if (!startsWith(lines[i], paste0(key, " ")) || !grepl(pattern, v)) {
      bad("has a damaged header")
    }
    v
  }
  version <- as.integer(field(2L, "version", "^[0-9]{1,4}$"))
  if (version > checkpoint_version) {
    bad(sprintf("has format version %d, written by a newer costbo (this one reads up to %d)",
                version, checkpoint_version))
  }
  if (version != checkpoint_version) {
    bad(sprintf("has the unknown format version %d", version))
  }
  md5 <- field(3L, "md5", "^[0-9a-f]{32}$")
  n <- as.double(field(4L, "bytes", "^[0-9]{1,15}$"))
  payload <- bytes[-seq_len(nl[4L])]
  if (length(payload) < n) {
    bad(sprintf("is truncated (%.0f of %.0f bytes)", length(payload), n))
  }
  if (length(payload) > n) bad("has bytes after its end")
  if (!identical(md5_raw(payload), md5)) {
    bad("is damaged: its checksum does not match its content")
  }
  saved <- tryCatch(unserialize(memDecompress(payload, "gzip")),
                    error = function(e) bad("cannot be decoded"))
  if (!(is.list(saved) && all(c("state", "ctl", "random_seed") %in%
                              names(saved)))) {
    bad("does not hold a run")
  }
  saved
}

read_checkpoint_v1 <- function(path, bad) {
  saved <- tryCatch(readRDS(path), error = function(e) NULL,
                    warning = function(w) NULL)
  if (!(is.list(saved) && identical(saved$format, "costbo checkpoint") &&
        all(c("state", "ctl", "random_seed") %in% names(saved)))) {
    bad("is not a file written by bo_optimize(checkpoint = ) (or is damaged)")
  }
  warn_checkpoint(sprintf(paste("the checkpoint \"%s\" was written by an",
                                "earlier costbo, without a checksum: it is",
                                "read without checking it for damage"),
                          path))
  saved
}

# A warning about a checkpoint (class costbo_warning_checkpoint).
warn_checkpoint <- function(message) {
  warning(structure(
    class = c("costbo_warning_checkpoint", "costbo_warning", "warning",
              "condition"),
    list(message = message, call = NULL)))
}

# Validate before paying: everything the run will need is checked before
# its first evaluation, by the code that would reject it later. The models
# are fitted (as state_fit() does, the objective's GP first, then the
# log-cost GP of a measured cost) and the policy's acquisition is evaluated
# at one point, in a state of synthetic data of the problem's kind (a small
# Kronecker-sequence design, or the first candidates, with distinct values
# and costs). A costbo error there (a `model` setting gp_fit() rejects, a
# policy that does not suit the problem) is signalled now, naming `model`,
# `model$cost` or `policy`; anything else (a numerical accident of the
# synthetic data) is left for the run to meet. The random-number
# generator's state is restored, so the run itself is unchanged.
check_run_ready <- function(state, call) {
  saved <- save_rng()
  on.exit(restore_rng(saved))
  pr <- state$problem
  syn <- synthetic_state(state)
  stage <- function(arg, expr) {
    withCallingHandlers(
      tryCatch(expr, costbo_error = function(e) {
        stop_arg_cause(arg, e, call = call)
      }),
      warning = function(w) invokeRestart("muffleWarning"))
  }
  if (pr$cost_type == "measured" && !is.null(state$model_args$cost)) {
    # the objective's GP alone, so that an error names the right setting
    alone <- syn
    alone$model_args$cost <- NULL
    stage("model", state_fit(alone))
    syn <- stage("model$cost", state_fit(syn))
  } else {
    syn <- stage("model", state_fit(syn))
  }
  X <- if (!is.null(pr$candidates)) {
    pr$candidates[1L, , drop = FALSE]
  } else matrix((pr$lower + pr$upper) / 2, 1L)
  stage("policy", {
    syn$memory <- policy_init(syn$policy, syn)
    syn$policy$acquisition(syn, X)
  })
  invisible(TRUE)
}

# A state of the run's problem, policy and settings holding synthetic
# evaluations (see check_run_ready()).
synthetic_state <- function(state) {
  pr <- state$problem
  d <- pr$d
  m <- 2L * (d + 1L)
  X <- if (!is.null(pr$candidates)) {
    pr$candidates[seq_len(min(m, nrow(pr$candidates))), , drop = FALSE]
  } else {
    # a Kronecker sequence: frac(i sqrt(p_j)) for the first d primes
    p <- first_primes(d)
    U <- (outer(seq_len(m), sqrt(p)) %% 1) * 0.9 + 0.05
    sweep(sweep(U, 2L, pr$upper - pr$lower, "*"), 2L, pr$lower, "+")
  }
  sources <- if (is_miso(pr)) seq_len(pr$n_sources) - 1L else NA_integer_
  syn <- new_state(pr, state$policy, state$charge_initial, state$model_args)
  k <- 0L
  for (i in seq_len(nrow(X))) for (s in sources) {
    k <- k + 1L
    cost <- if (pr$cost_type == "measured") exp(0.5 * cos(2 * k)) else {
      pc <- point_cost(pr, X[i, ], s)
      if (is.na(pc$cost)) 1 else pc$cost
    }
    syn <- state_record(syn, X[i, ], sin(3 * k), cost, "initial", source = s)
  }
  syn
}

first_primes <- function(n) {
  p <- integer()
  k <- 2L
  while (length(p) < n) {
    if (all(k %% p[p <= sqrt(k)] != 0L)) p <- c(p, k)
    k <- k + 1L
  }
  p
}

# The main loop; returns a bo_run.
run_loop <- function(state, ctl) {
  if (!is.null(state$stop_reason)) return(finish_run(state, ctl))
  pr <- state$problem
  n_bo <- function() sum(state$phase == "bo")
  result <- tryCatch({
    repeat {
      if (state$spent >= state$budget) {
        state <- stop_run(state, "budget", "budget spent")
        break
      }
      if (!is.null(ctl$max_evaluations) && n_bo() >= ctl$max_evaluations) {
        state <- stop_run(state, "max_evaluations",
                          "maximum number of evaluations reached")
        break
      }
      p <- tryCatch(state_propose(state), error = function(e) e)
      if (inherits(p, "error")) {
        state <- stop_run(state, "policy_failed",
                          paste("the policy failed:", conditionMessage(p)))
        break
      }
      state <- p$state
      x <- p$x
      if (ctl$pandora_stop && isTRUE(p$info$stop_rule)) {
        state <- stop_run(state, "pandora", "Pandora stopping rule")
        break
      }
      if (is_miso(pr)) {
        state <- run_miso_step(state, p, ctl)
        if (!is.null(state$stop_reason)) break
        next
      }
      if (is_cvs(pr)) {
        state <- run_cvs_step(state, p, ctl)
        if (!is.null(state$stop_reason)) break
        next
      }
      pc <- point_cost(pr, x)
      if (nzchar(pc$message)) {
        # a point whose known cost cannot be worked out is not evaluated
        state <- record_step(state, x, cost_failure(pc$message), p, ctl)
        if (!is.null(state$stop_reason)) break
        next
      }
      if (pr$cost_type == "known" &&
          state$spent + pc$cost > state$budget * (1 + 1e-12)) {
        state <- stop_run(state, "budget",
                          "budget spent: the next point would not fit")
        state$declined <- list(x = x, cost = pc$cost, info = p$info)
        break
      }
      failed <- state$X[!state_ok(state), , drop = FALSE]
      if (nrow(failed) && any(rowSums(abs(sweep(failed, 2L, x)) <=
                                      1e-10 * (pr$upper - pr$lower)) == pr$d)) {
        state <- stop_run(state, "repeated_failure",
                          "the policy proposed a point that failed before")
        break
      }
      state <- record_step(state, x, evaluate_point(pr, x, pc$cost), p, ctl)
      if (!is.null(state$stop_reason)) break
    }
    state
  }, interrupt = function(e) {
    stop_run(state, "interrupted", "interrupted")
  })
  finish_run(result, ctl)
}

# One step with control sets: stop when the chosen set does not fit, else
# draw the random inputs, evaluate the realized full query and record it.
run_cvs_step <- function(state, p, ctl) {
  pr <- state$problem
  i <- p$control_set
  cost <- pr$control_costs[i]
  if (state$spent + cost > state$budget * (1 + 1e-12)) {
    state <- stop_run(state, "budget", paste("budget spent: the chosen",
                                             "control set would not fit"))
    state$declined <- list(x = p$x, control_set = i, cost = cost,
                           info = p$info)
    return(state)
  }
  x <- cvs_realize(pr, p$x, i)
  record_step(state, x, evaluate_point(pr, x, cost), p, ctl,
              control_set = i)
}

# Record a step's evaluation with the policy's timings and diagnostics,
# checkpoint, and stop on a failure when asked to.
record_step <- function(state, x, ev, p, ctl, control_set = NA_integer_,
                        source = NA_integer_) {
  state <- state_record(state, x, ev$value, ev$cost, "bo",
                        status = ev$status, message = ev$message,
                        fit_time = p$fit_time, policy_time = p$policy_time,
                        eval_time = ev$time, info = p$info,
                        control_set = control_set, source = source)
  state$memory <- p$memory
  state$iteration <- state$iteration + 1L
  state <- save_checkpoint(state, ctl)
  if (ctl$progress) show_progress(state)
  if (ev$failed && ctl$on_error == "stop") {
    state <- stop_run(state, failure_code(ev), failure_reason(ev))
  }
  state
}

# One step with information sources: stop when the chosen (point, source)
# does not fit, else evaluate the source there and record it.
run_miso_step <- function(state, p, ctl) {
  pr <- state$problem
  s <- as.integer(p$source)
  pc <- point_cost(pr, p$x, s)
  if (nzchar(pc$message)) {
    return(record_step(state, p$x, cost_failure(pc$message), p, ctl,
                       source = s))
  }
  cost <- pc$cost
  if (state$spent + cost > state$budget * (1 + 1e-12)) {
    state <- stop_run(state, "budget",
                      "budget spent: the next point would not fit")
    state$declined <- list(x = p$x, source = s, cost = cost, info = p$info)
    return(state)
  }
  record_step(state, p$x, evaluate_point(pr, p$x, cost, source = s), p,
              ctl, source = s)
}

# The simple regret of Tay et al. (2023) after each evaluation of the
# optimization phase: optimum minus the best expected noise-free objective of
# the chosen (control set, partial query) so far; NA without it.
cvs_simple_regret <- function(x) {
  pr <- x$problem
  n <- length(x$value)
  if (!is_cvs(pr) || is.null(pr$noise_free) || is.null(pr$optimum)) {
    return(rep(NA_real_, n))
  }
  e <- ifelse(x$phase == "bo", x$expected, -Inf)
  r <- pr$optimum - cummax(e)
  r[!is.finite(r)] <- NA_real_
  r
}

finish_run <- function(state, ctl) {
  if (ctl$progress) cat("\n", file = stderr())
  structure(state, class = "bo_run")
}

show_progress <- function(state) {
  cat(sprintf("\r[costbo] %d evaluations, spent %s of %s, best %s   ",
              length(state$value), format(state$spent, digits = 4),
              format(state$budget, digits = 4),
              format(state_best(state), digits = 6)), file = stderr())
}

#' @export
print.bo_run <- function(x, ...) {
  cat(sprintf("Bayesian optimization run: %s on \"%s\"\n", x$policy$label,
              x$problem$name))
  print_state_summary(x)
  cat(sprintf("  stopped: %s\n", x$stop_reason))
  print_checkpoint_error(x$checkpoint_error)
  invisible(x)
}

#' Summarize a run
#'
#' @param object A `bo_run`.
#' @param ... Unused.
#' @return An object of class `summary.bo_run`: a list with the best point,
#'   best value (of the objective, source 0, with information sources), simple regret (when the problem's optimum is known; with
#'   control sets, the simple regret of Tay et al. 2023 on the expected
#'   noise-free objective, when the problem records it), the
#'   spend, the numbers of evaluations (within budget, initial, failed),
#'   the reason the run stopped (`stop_reason`, and `stop_code`: see
#'   [bo_optimize()]) and, when checkpoints could not be written,
#'   `checkpoint_error` (the number of failed writes, the last message and
#'   the number of evaluations then).
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 4), policy_ei(),
#'                    seed = 2, progress = FALSE)
#' summary(run)
#' @export
summary.bo_run <- function(object, ...) {
  df <- as.data.frame(object)
  ok <- df$status == "ok"
  n_failed <- sum(!ok)
  if (is_miso(object$problem)) ok <- ok & df$source == 0L
  best_i <- if (any(ok)) which(ok)[which.max(df$value[ok])] else NA_integer_
  xn <- paste0("x", seq_len(object$problem$d))
  best_value <- if (is.na(best_i)) NA_real_ else df$value[best_i]
  regret <- if (is.null(object$problem$optimum)) NA_real_ else
    object$problem$optimum - best_value
  if (is_cvs(object$problem)) {
    # the regret of the chosen control sets and partial queries
    sr <- cvs_simple_regret(object)
    regret <- if (length(sr)) sr[length(sr)] else NA_real_
  }
  structure(list(
    problem = object$problem$name, policy = object$policy$label,
    best_x = if (is.na(best_i)) NULL else unlist(df[best_i, xn]),
    best_value = best_value,
    optimum = object$problem$optimum,
    regret = regret, cvs = is_cvs(object$problem),
    spent = object$spent, budget = object$budget,
    n = nrow(df), n_initial = sum(df$phase == "initial"),
    n_within_budget = sum(df$within_budget & df$phase == "bo"),
    n_failed = n_failed, stop_reason = object$stop_reason,
    stop_code = object$stop_code,
    checkpoint_error = object$checkpoint_error
  ), class = "summary.bo_run")
}

# A line on the checkpoint writes that failed, if any.
print_checkpoint_error <- function(err) {
  if (is.null(err)) return(invisible())
  cat(sprintf("  checkpoint:  %d write%s failed (last after evaluation %d: %s)\n",
              err$n, if (err$n == 1L) "" else "s", err$evaluations,
              err$message))
}

#' @export
print.summary.bo_run <- function(x, digits = max(3L, getOption("digits") - 3L),
                                 ...) {
  cat(sprintf("%s on \"%s\"\n", x$policy, x$problem))
  cat(sprintf("  best value:  %s\n", format(x$best_value, digits = digits)))
  if (!is.null(x$best_x)) {
    cat(sprintf("  best point:  (%s)\n",
                paste(format(x$best_x, digits = digits), collapse = ", ")))
  }
  if (!is.na(x$regret) && isTRUE(x$cvs)) {
    cat(sprintf("  regret:      %s (simple regret of the expected objective; optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  } else if (!is.na(x$regret)) {
    cat(sprintf("  regret:      %s (known optimum %s)\n",
                format(x$regret, digits = digits),
                format(x$optimum, digits = digits)))
  }
  cat(sprintf("  spent:       %s of budget %s\n",
              format(x$spent, digits = digits), format(x$budget, digits = digits)))
  cat(sprintf("  evaluations: %d (%d initial, %d within budget after them, %d failed)\n",
              x$n, x$n_initial, x$n_within_budget, x$n_failed))
  cat(sprintf("  stopped:     %s\n", x$stop_reason))
  print_checkpoint_error(x$checkpoint_error)
  invisible(x)
}

#' One row per evaluation of a run or session
#'
#' @param x A `bo_run` or `bo_session`.
#' @param row.names,optional Passed on to [as.data.frame()].
#' @param ... Unused.
#' @return A data frame with columns `x1`, ..., `xd`, `value`, `cost`,
#'   `cumulative_cost` (charged costs only), `within_budget`, `phase`
#'   (`"initial"` or `"bo"`), `status` (`"ok"` or `"error"`), `message`,
#'   `cost_valid` (`FALSE` when no valid cost is known: the known cost
#'   function failed at the point, which was then not evaluated, or a
#'   measured cost was missing, not a positive number, or not reported
#'   because the objective failed; the cost is then `NA` and not charged,
#'   and a valid value reported with an invalid measured cost is kept with
#'   status `"ok"`), `fit_time`, `policy_time`, `eval_time` (seconds), then the policy's
#'   diagnostics (e.g. `acquisition`, `lambda`). With control sets, after
#'   `eval_time`: `control_set` (the index of the chosen set, `NA` for the
#'   initial design), `random_x1`, ..., `random_xd` (the realized random
#'   inputs, `NA` where controlled), and when the problem records its
#'   noise-free objective `expected_value` (of the chosen set and partial
#'   query) and `simple_regret`. With information sources, after
#'   `eval_time`: `source` (0 for the objective).
#' @family runs
#' @examples
#' run <- bo_optimize(test_problem("branin", budget = 3), policy_ei_pu(),
#'                    seed = 3, progress = FALSE)
#' as.data.frame(run)
#' @export
as.data.frame.bo_run <- function(x, row.names = NULL, optional = FALSE,
                                 ...) {
  n <- length(x$value)
  X <- x$X
  colnames(X) <- paste0("x", seq_len(x$problem$d))
  cum <- cumsum(ifelse(x$charged, x$cost, 0))
  df <- data.frame(X, value = x$value, cost = x$cost, cumulative_cost = cum,
                   within_budget = cum <= x$budget * (1 + 1e-12),
                   phase = x$phase, status = x$status, message = x$message,
                   cost_valid = !is.na(x$cost), fit_time = x$fit_time, policy_time = x$policy_time,
                   eval_time = x$eval_time, stringsAsFactors = FALSE)
  if (is_miso(x$problem)) df$source <- x$source
  if (is_cvs(x$problem)) {
    df$control_set <- x$control_set
    R <- x$random
    colnames(R) <- paste0("random_x", seq_len(x$problem$d))
    df <- cbind(df, as.data.frame(R))
    if (!is.null(x$problem$noise_free)) {
      df$expected_value <- x$expected
      df$simple_regret <- cvs_simple_regret(x)
    }
  }
  keys <- unique(unlist(lapply(x$info, names)))
  for (k in keys) {
    df[[k]] <- vapply(x$info, function(i) {
      v <- i[[k]]
      if (is.null(v) || length(v) != 1L) NA_real_ else as.double(v)
    }, numeric(1))
  }
  row.names <- check_row_names(row.names, nrow(df))
  if (!is.null(row.names)) row.names(df) <- row.names
  if (n == 0L) df <- df[0, , drop = FALSE]
  df
}

#' @rdname as.data.frame.bo_run
#' @export
as.data.frame.bo_session <- as.data.frame.bo_run
