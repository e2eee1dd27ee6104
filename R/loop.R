# The run loop: bo_optimize() and bo_resume() validate, evaluate the initial
# design, then repeat (fit the models, ask the policy, price the step, pay
# for it, record it) until the budget is spent; one path for every variant
# of problem (see problem-questions.R).

#' Run a cost-aware Bayesian optimization
#'
#' Evaluates an initial design, then repeats: refit the models (warm-started
#' from the previous fit), ask the policy for the next point, evaluate it,
#' record it, until the budget is spent.
#'
#' @section Budget accounting:
#' Every evaluation counts against the budget, the initial design's too
#' (`charge_initial = TRUE`, the default everywhere; `FALSE` leaves the
#' design's costs unpaid, as the papers' reference implementations do).
#' An evaluation is started only when the remaining budget can pay for it:
#' with a known cost, when its cost fits; with a measured cost, when the
#' GP of the log cost gives probability at least `budget_prob` that it fits
#' (before the costs can be modelled, when their geometric mean fits). With
#' `budget_rule = "feasible"` (the default), when the policy's proposal
#' does not fit, the point that the policy values most (by its acquisition)
#' among those that fit is evaluated instead (scrambled Sobol points of the
#' box, and its corners with a known cost, the valid points of a typed
#' space, the candidates of a finite domain; the record marks it
#' `budget_feasible`), and the run
#' ends only when no point fits. So a known cost never overruns the budget
#' and a measured one overruns it by at most its last evaluation, which
#' was predicted to fit with probability `budget_prob`. With `budget_rule =
#' "stop"` the run ends at the first proposal whose known cost does not
#' fit, and a measured cost is not checked: the evaluation that crosses the
#' budget is recorded, marked `within_budget = FALSE`, and ends the run
#' (the reporting rule of Astudillo et al. 2021; the rule of the studies in
#' `inst/scripts`). Problems with control sets or information sources,
#' whose policies price their own choices, always follow `"stop"`. The
#' seconds the rule takes at each step are the column `rule_time` of
#' [as.data.frame()] (apart from `fit_time` and `policy_time`, and counted
#' in neither).
#'
#' A measured cost is predicted for the budget by the GP of the log cost,
#' calibrated: the predicted cost is the GP's median \eqn{\exp(m)}; its
#' spread is the predictive sd of the same GP with its lengthscales halved
#' (lengthscales fitted to few costs are too long, and the GP's errors are
#' largest a little away from its data), times a scale \eqn{k} learned
#' from the standardized errors of the run's own earlier predictions (the
#' costs paid against what was predicted for them, recent ones weighing
#' more; \eqn{\log k} normal a posteriori from a normal prior centred on
#' 0 with sd 1, so that the predictive, a scale mixture of normals, has
#' heavy tails while few costs have been predicted). The probability of
#' fitting and the 90% intervals that runs record and [bo_ask()] reports
#' are this predictive's: on paper 000's measured costs under EI-PU-CC the
#' GP's own 90% intervals covered 63% of the costs paid in a run's first 5
#' steps and 79% later, the calibrated ones 89% and 91%
#' (`bench/cost-coverage.R`). The calibration draws no random numbers and
#' changes nothing the policies see (they use the GP itself), and with
#' `budget_rule = "stop"` and `charge_initial = FALSE` nothing a run
#' decides.
#'
#' The default initial design has `2 * (k + 1)` points for `k` settings
#' (the inputs of a box, the parameters of a typed space); when it is
#' charged it ends early, once a model can be fitted, rather than spend
#' more than a quarter of the budget, and it never starts a point the
#' budget cannot pay for.
#'
#' @section What a run records:
#' Every evaluation is a row of [as.data.frame()] of the run (see
#' [as.data.frame.bo_run()] for all its columns): its point, value and cost,
#' the spend, the phase and status, the timings and the policy's
#' diagnostics. Each step after the initial design also records what its
#' cost was predicted to be when the step was decided, as the budget rule
#' saw it: `cost_predicted` (a known cost: the cost itself; a measured
#' cost: the predictive median, see the section on budget accounting),
#' `cost_lower` and `cost_upper` (its 90% interval; a known cost's is the
#' cost itself) and `prob_fit`, the probability that the cost fits in the
#' budget that remained (counting the costs of pending evaluations in
#' asynchronous runs): the one the rule compared with `budget_prob` (1 for
#' a known cost that fits). They are `NA` for the initial design, where
#' there is no model, and for a step whose known cost could not be worked
#' out; while measured costs cannot be modelled yet (fewer than two, or all
#' equal) `cost_predicted` is the geometric mean of the costs seen,
#' without an interval, and `prob_fit` 1 or 0 as it fits or not. Sessions
#' record the prediction each point of [bo_ask()] carries when it is told
#' back ([bo_tell()]); the mlr3 tuner ([mlr_tuners_costbo]) writes them to
#' its archive. [bo_benchmark()] records do not keep them.
#'
#' @section Models:
#' Before every proposal the objective's GP (and, for a measured cost, the
#' GP of the log cost) is refitted by [gp_fit()] to all successful
#' evaluations, warm-started from the previous fit. The problem says whether
#' its evaluations are deterministic (the default) or noisy (`noise` in
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
#' (Picheny et al. 2013) instead of the largest noisy observation. `gp_args`
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
#' random-number generator, so the run itself is unchanged): a `gp_args`
#' setting that [gp_fit()] rejects, or a policy that does not suit the
#' problem (e.g. [policy_kg()] with a cost function written in R), is an
#' error naming `gp_args`, `gp_args$cost` or `policy` before anything is paid,
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
#' A known cost function written in R that fails (signals an error) at
#' some points, say where a setting has no price, is handled the same way.
#' Cost-aware policies call it at the points they consider: with `"stop"`
#' a failure there ends the run (`stop_code = "cost_failed"`, nothing paid
#' for that point); with `"skip"` such a point is unaffordable to the
#' policy (its cost is taken as 1e100), so the policy looks elsewhere and
#' the budget is spent where the cost is defined. A cost that fails at
#' every point tried before the run, or that returns anything but one
#' positive number, is refused before anything is paid: signal an error
#' where a point has no cost, do not return `NA` or a negative number.
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
#' @param design The initial design of a box (with or without information
#'   sources): `"sobol"` (scrambled Sobol points) or `"minimax"` (a minimax
#'   fill-distance design, [minimax_points()], the design of Yue and Kontar
#'   2020); with information sources every design point is evaluated at
#'   every source. Problems with candidates, control sets or a typed space
#'   take `"sobol"`.
#' @param n_init Size of the initial design: scrambled Sobol points (random
#'   candidates for a finite domain; see `design`). Default `2 * (k + 1)` for `k`
#'   settings, ending early within a quarter of the budget when charged
#'   (see the section on budget accounting), or 0 with `initial`. At most
#'   1000, and at most the number of candidates of a finite domain: the
#'   first GP fit is \eqn{O(n^3)} and takes about 4 s on 1000 points, 30 s
#'   on 2000, with R's reference BLAS.
#' @param initial Optional data frame of points already evaluated (columns
#'   `x1`, ..., `xd`, `value`, and `cost` for a measured cost); they form
#'   (part of) the initial design.
#' @param seed Optional seed: the run draws from `set.seed(seed)`'s stream
#'   and leaves the caller's random-number generator as it found it
#'   (without `seed` the run draws from the caller's stream, so that
#'   `set.seed(s); bo_optimize(...)` repeats a run too).
#' @param max_evaluations Optional cap on the number of evaluations after the
#'   initial design. Without it a run stops at costbo's cap of 2000
#'   evaluations after the design, with a warning of class
#'   `costbo_warning_cap`: a cost tiny against the budget (or a measured
#'   cost that is never valid, so never charged) leaves a run no other end,
#'   and an exact GP on 2000 points takes about 30 s per fit
#'   (`options(costbo.max_run_evaluations = n)` sets another cap).
#' @param charge_initial Are the costs of the initial design (the points
#'   of `initial` included) charged to the budget? `TRUE` (the default, as
#'   for the design a session proposes, in [bo_benchmark()] and the mlr3
#'   tuner; see [bo_budget]): the design
#'   spends from the budget, the default design ends early rather than
#'   spend more than a quarter of it, and no design point starts that the
#'   budget cannot pay for (see the section on budget accounting). `FALSE`:
#'   the design is free and the budget is the optimization phase's alone,
#'   as in the papers' reference implementations and the studies in
#'   `inst/scripts`.
#' @param budget_rule What happens when the policy's proposal does not fit
#'   in the remaining budget (see the section on budget accounting):
#'   * `"feasible"` (the default): the point the policy values most among
#'     those that fit is evaluated instead, and the run ends (`stop_code =
#'     "budget"`) only when no point fits. A known cost never overruns the
#'     budget; a measured one overruns it by at most its last evaluation.
#'   * `"stop"`: the run ends at the first proposal whose known cost does
#'     not fit; a measured cost is not checked, so the evaluation that
#'     crosses the budget is recorded (`within_budget = FALSE`) and ends the
#'     run. This is the reporting rule of Astudillo et al. (2021) and the
#'     rule of the studies in `inst/scripts`.
#'
#'   Problems with control sets or information sources, whose policies
#'   price their own choices, always follow `"stop"`.
#' @param budget_prob A probability in (0, 1), used with a measured cost
#'   only: an evaluation starts when the calibrated prediction of the GP of
#'   the log cost (see the section on budget accounting) says that its cost
#'   fits in the remaining budget with at least this probability (default
#'   0.9). It applies to the proposals under `budget_rule =
#'   "feasible"` and, under either rule, to the points of a charged initial
#'   design. Larger values overrun the budget less often but can end a run
#'   with more of it unspent.
#' @param on_error `"stop"` or `"skip"`: what to do when the objective, or
#'   a known cost function, fails (see the section on failures).
#' @param pandora_stop Also stop when the Pandora stopping rule fires (the
#'   incumbent, see the section on models, is at least the largest Gittins
#'   index; PBGI policies only), as in the cost-per-sample setting of Xie et
#'   al. (2024).
#' @param progress Report every evaluation, the initial design's included
#'   (the default in interactive sessions; see [bo_progress] for the lines
#'   written to a log and for \pkg{progressr}).
#' @param checkpoint Optional file to save the run to after every evaluation.
#' @param workers The number of evaluations run at once (see [bo_async]):
#'   1 (the default) evaluates one point at a time; k > 1 keeps k
#'   evaluations running, on the workers of the current [future::plan()] or,
#'   with `clock = "simulated"`, on k virtual workers. At most 64 (and, on
#'   the real clock, at most the plan's workers).
#' @param clock `"real"` or `"simulated"`: with `"simulated"`, each
#'   evaluation takes its cost in simulated time on one of `workers` virtual
#'   workers, in this R session (see [bo_async]).
#' @inheritParams bo_session
#' @return A `bo_run`: use [summary()], [as.data.frame()] and [plot()] on it.
#'   Why the run stopped is in `stop_reason`, a sentence for people, and in
#'   `stop_code`, a code for programs: `"budget"` (the budget is spent, or
#'   the next point or control set would not fit in it), `"max_evaluations"`,
#'   `"pandora"` (the Pandora stopping rule, with `pandora_stop = TRUE`),
#'   `"policy_failed"` (the policy raised an error), `"objective_failed"`
#'   and `"cost_failed"` (an evaluation of the objective or of the cost
#'   function failed, with `on_error = "stop"`), `"repeated_failure"` (the
#'   policy proposed again a point that had failed), `"exhausted"` (on a
#'   typed space with a deterministic objective, the policy proposed an
#'   evaluated point and every typed point reachable from it by changing
#'   its integer and categorical parameters has been evaluated) or
#'   `"interrupted"`.
#' @family runs
#' @examples
#' prob <- test_problem("branin", budget = 6)
#' run <- bo_optimize(prob, policy_ei(), seed = 1, progress = FALSE)
#' run
#' head(as.data.frame(run))
#' @export
bo_optimize <- function(problem, policy, n_init = NULL, initial = NULL,
                        seed = NULL, max_evaluations = NULL,
                        charge_initial = TRUE, on_error = c("stop", "skip"),
                        pandora_stop = FALSE, progress = interactive(),
                        checkpoint = NULL, gp_args = list(), workers = 1L,
                        clock = c("real", "simulated"),
                        budget_rule = c("feasible", "stop"), budget_prob = 0.9,
                        design = c("sobol", "minimax"), model) {
  call <- sys.call()
  problem <- check_problem_policy(problem, policy, call)
  design <- check_design(design, problem, call)
  budget_rule <- check_budget_rule(budget_rule)
  budget_prob <- check_budget_prob(budget_prob)
  workers <- check_count_max(workers, 1L, max_workers, arg = "workers")
  clock <- check_choice(clock, c("real", "simulated"))
  check_async(workers, clock, problem, call)
  design_cap <- is.null(n_init) && is.null(initial)
  n_init <- if (is.null(n_init)) {
    if (is.null(initial)) default_n_init(problem) else 0L
  } else check_count_max(n_init, 0L, max_n_init, arg = "n_init")
  if (!is.null(seed)) seed <- check_count(seed)
  if (!is.null(max_evaluations)) {
    max_evaluations <- check_count(max_evaluations)
  }
  charge_initial <- check_flag(charge_initial)
  on_error <- check_choice(on_error, c("stop", "skip"))
  pandora_stop <- check_flag(pandora_stop)
  progress <- check_flag(progress)
  if (!is.null(checkpoint) && !(is.character(checkpoint) &&
                                length(checkpoint) == 1L &&
                                !is.na(checkpoint) && nzchar(checkpoint))) {
    stop_arg("checkpoint", "a file name", checkpoint)
  }
  if (n_init > problem_n_points(problem)) {
    stop_arg("n_init", sprintf("at most the number of candidates (%d)",
                               problem_n_points(problem)), n_init)
  }
  if (!missing(model)) {
    gp_args <- renamed_arg(model, "model", "gp_args", !missing(gp_args))
  }
  gp_args <- check_model_args(gp_args)
  if (!is.null(seed)) {
    # the run's own stream; the caller's is put back afterwards
    saved_rng <- save_rng()
    on.exit(restore_rng(saved_rng), add = TRUE)
    set.seed(seed)
  }
  state <- new_state(problem, policy, charge_initial, gp_args, budget_rule,
                     budget_prob)
  if (!is.null(initial)) state <- state_initial(state, initial, call)
  ctl <- list(max_evaluations = max_evaluations, on_error = on_error,
              pandora_stop = pandora_stop, progress = progress,
              checkpoint = checkpoint, workers = workers, clock = clock,
              design = design)
  async <- workers > 1L || clock == "simulated"
  if (n_init + sum(state_ok(state)) < problem_min_data(problem)) {
    stop_arg("n_init", "such that the initial design has at least 2 points",
             n_init)
  }
  if (n_init + sum(state_ok(state)) < 1L) {
    # the explicit prior is conditioned on the evaluated points: gp_finite()
    # needs one at least
    stop_arg("n_init", paste("at least 1 with an explicit prior and no",
                             "`initial` points"), n_init)
  }
  state$skip_cost_failures <- on_error == "skip"
  state$id <- new_run_id()
  check_run_ready(state, call, pending = async)
  state$memory <- policy_init(policy, state)
  state$started <- Sys.time()
  ctl$progressor <- progress_progressor(progress, state_remaining(state),
                                        environment())
  if (async) {
    if (n_init > 0L) {
      state$initial_plan <- c(problem_design(problem, n_init, design),
                              list(done = 0L, launched = 0L,
                                   cap = design_cap))
    }
    run <- warn_if_failed(run_async(state, ctl))
  } else {
    state <- run_initial(state, n_init, ctl, design_cap)
    run <- warn_if_failed(run_loop(state, ctl))
  }
  warn_if_capped(warn_budget_small(check_budget_affordable(run, call)))
}

# A run that an evaluation's failure ended says so (a warning of class
# costbo_warning_failed), with what was paid and how to go on: the run
# itself keeps every evaluation.
warn_if_failed <- function(run) {
  if (!(run$stop_code %in% c("objective_failed", "cost_failed"))) {
    return(run)
  }
  n <- length(run$value)
  warning(costbo_condition(
    c("costbo_warning_failed", "costbo_warning"),
    sprintf(paste(
      "the run stopped after %d evaluations: %s. Every evaluation is kept",
      "in the run (as.data.frame()); bo_optimize(on_error = \"skip\") goes",
      "on past failed evaluations."), n, run$stop_reason),
    type = "warning"))
  run
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
#'   same domain, direction (`maximize`), cost type and budget as the saved
#'   one. When its objective or cost function differs from the saved one by
#'   its code (formals and body), as after fixing a bug in it or when the
#'   file holds another run, the run goes on with a warning (class
#'   `costbo_warning_checkpoint`); with `id` another run's file is refused.
#' @param max_evaluations Optionally a new cap on the number of evaluations
#'   after the initial design.
#' @param progress Report every evaluation (see [bo_progress])?
#' @param id Optionally the identity of the run to resume (`run$id` of the
#'   run that wrote the file, shown by its `print()`): the file must hold
#'   that run.
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
                      progress = interactive(), id = NULL) {
  call <- sys.call()
  if (!(is.character(checkpoint) && length(checkpoint) == 1L &&
        !is.na(checkpoint) && file.exists(checkpoint))) {
    stop_arg("checkpoint", "an existing checkpoint file", checkpoint)
  }
  if (!is.null(id) && !(is.character(id) && length(id) == 1L &&
                        !is.na(id) && nzchar(id))) {
    stop_arg("id", "one run identity (a string, `run$id`)", id)
  }
  saved <- read_checkpoint(checkpoint, call)
  if (!is.null(id) && !identical(saved$state$id, id)) {
    stop_args(c("checkpoint", "id"), sprintf(
      "name the same run: `id` asks for the checkpoint of run %s, not of %s",
      id,
      if (is.null(saved$state$id)) "a run without an identity (written by an older costbo)"
      else paste("run", saved$state$id)))
  }
  ctl <- saved$ctl
  if (!is.null(max_evaluations)) {
    ctl$max_evaluations <- check_count(max_evaluations)
  }
  ctl$progress <- check_flag(progress)
  ctl$checkpoint <- checkpoint
  state <- upgrade_state(saved$state)
  check_state_records(state, "checkpoint", call)
  if (!is.null(problem)) {
    old <- state$problem
    same <- inherits(problem, "bo_problem") && problem$d == old$d &&
      isTRUE(all.equal(problem$lower, old$lower)) &&
      isTRUE(all.equal(problem$upper, old$upper)) &&
      identical(problem$cost_type, old$cost_type) &&
      isTRUE(all.equal(problem$budget, old$budget)) &&
      problem_maximize(problem) == problem_maximize(old)
    if (!same) {
      stop_arg("problem", paste("a bo_problem with the saved problem's domain,",
                                "direction, cost type and budget"), problem)
    }
    if (!identical(problem_code_digest(problem), problem_code_digest(old))) {
      warn_checkpoint(sprintf(paste(
        "the objective or cost function of `problem` is not the one of the",
        "run saved in \"%s\" (run %s): the run goes on with the new one",
        "(if the file is another run's, bo_resume(id =) refuses it)"),
        checkpoint, if (is.null(state$id)) "without an identity" else
          state$id))
    }
    state$problem <- upgrade_problem(problem)
  }
  assign(".Random.seed", saved$random_seed, envir = globalenv())
  state$stop_reason <- NULL
  state$stop_code <- NULL
  ctl$progressor <- progress_progressor(ctl$progress, state_remaining(state),
                                        environment())
  if (isTRUE(ctl$workers > 1L) || identical(ctl$clock, "simulated")) {
    # pending evaluations are launched again first
    check_async(ctl$workers, ctl$clock, state$problem, call)
    return(warn_if_capped(warn_if_failed(run_async(state, ctl))))
  }
  # a run interrupted during its initial design completes it first
  state <- continue_initial(state, ctl)
  warn_if_capped(warn_if_failed(run_loop(state, ctl)))
}

# Evaluate the initial design. The design (points, and sources with
# information sources) is drawn first and kept in the state with the number
# of its evaluations done, so that a run interrupted during the design
# resumes it from its checkpoint where it stopped (continue_initial()).
run_initial <- function(state, n_init, ctl, cap = FALSE) {
  if (n_init == 0L) return(state)
  state$initial_plan <- c(problem_design(state$problem, n_init,
                                         if (is.null(ctl$design)) "sobol"
                                         else ctl$design),
                          list(done = 0L, cap = cap))
  continue_initial(state, ctl)
}

# Evaluate the points of the initial design not evaluated yet.
continue_initial <- function(state, ctl) {
  plan <- state$initial_plan
  if (is.null(plan) || plan$done >= nrow(plan$x)) return(state)
  pr <- state$problem
  tryCatch({
    for (k in seq.int(plan$done + 1L, nrow(plan$x))) {
      step <- plan_step(plan, k)
      pc <- problem_price(pr, step)
      end <- design_ends(state, step, pc, isTRUE(plan$cap))
      if (!is.null(end)) {
        state$initial_plan$x <- plan$x[seq_len(k - 1L), , drop = FALSE]
        if (!is.null(end$code)) state <- stop_run(state, end$code, end$reason)
        return(state)
      }
      # a point whose known cost cannot be worked out fails, unpaid
      ev <- if (nzchar(pc$message)) cost_failure(pc$message) else
        evaluate_step(pr, step, pc$cost)
      state <- state_record(state, step, ev$value, ev$cost, "initial",
                            status = ev$status, message = ev$message,
                            eval_time = ev$time)
      state$initial_plan$done <- k
      state <- save_checkpoint(state, ctl)
      progress_evaluation(state, ctl)
      if (ev$failed && ctl$on_error == "stop") {
        state <- stop_run(state, failure_code(ev),
                          failure_reason(ev, initial = TRUE))
        return(state)
      }
    }
    state
  }, interrupt = function(e) {
    stop_run(state, "interrupted")
  })
}

# The main loop; returns a bo_run.
run_loop <- function(state, ctl) {
  if (!is.null(state$stop_reason)) return(finish_run(state, ctl))
  state$skip_cost_failures <- ctl$on_error == "skip"
  n_bo <- function() sum(state$phase == "bo")
  result <- tryCatch({
    repeat {
      if (state$spent >= state$budget) {
        state <- stop_run(state, "budget")
        break
      }
      if (n_bo() >= run_max_evaluations(ctl)) {
        state <- stop_run(state, "max_evaluations", run_max_reason(ctl))
        break
      }
      p <- tryCatch(state_propose(state), error = function(e) e)
      if (inherits(p, "error")) {
        state <- stop_run(state, policy_failure_code(p),
                          policy_failure_reason(p))
        break
      }
      state <- p$state
      if (ctl$pandora_stop && isTRUE(p$info$stop_rule)) {
        state <- stop_run(state, "pandora")
        break
      }
      state <- run_step(state, p, ctl)
      if (!is.null(state$stop_reason)) break
    }
    state
  }, interrupt = function(e) {
    stop_run(state, "interrupted")
  })
  finish_run(result, ctl)
}

# One step of the policy's proposal p, as step_decide() (step.R) says:
# record a step whose known cost cannot be worked out as failed, unpaid;
# stop; or evaluate the step, then record it.
run_step <- function(state, p, ctl) {
  d <- step_decide(state, p)
  switch(d$action,
    fail = record_step(state, d$step, d$ev, d$p, ctl),
    stop = {
      state <- stop_run(state, d$code, d$reason)
      if (d$code == "budget") state$declined <- d$declined
      state
    },
    evaluate = {
      ev <- evaluate_step(state$problem, d$step, d$cost)
      record_step(state, d$step, ev, d$p, ctl)
    })
}

# Record a step's evaluation with the policy's timings and diagnostics,
# checkpoint, and stop on a failure when asked to.
record_step <- function(state, step, ev, p, ctl) {
  state <- state_record(state, step, ev$value, ev$cost, "bo",
                        status = ev$status, message = ev$message,
                        fit_time = p$fit_time, policy_time = p$policy_time,
                        eval_time = ev$time, info = p$info,
                        rule_time = p$rule_time)
  state <- state_record_prediction(state, p$prediction)
  state$memory <- p$memory
  state$iteration <- state$iteration + 1L
  state <- save_checkpoint(state, ctl)
  progress_evaluation(state, ctl)
  if (ev$failed && ctl$on_error == "stop") {
    state <- stop_run(state, failure_code(ev), failure_reason(ev))
  }
  state
}
