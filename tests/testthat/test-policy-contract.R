# Every exported policy honours one contract, through the public API: it is
# a bo_policy with a name, a label and its parameters; a problem accepts it
# or refuses it naming `policy`; on the problems that accept it, a run of
# two steps is reproducible from its seed and proposes points of the
# problem's domain, and bo_acquisition() gives one finite value per point.

# A small instance of each exported policy (a new export fails the test
# until it is listed here).
contract_policies <- function() list(
  policy_bmsei = policy_bmsei(steps = 2, fantasies = 2, n_raw = 20,
                              n_starts = 2, maxit = 20, n_greedy = 1),
  policy_ei = policy_ei(), policy_ei_pu = policy_ei_pu(),
  policy_ei_pu_cc = policy_ei_pu_cc(),
  policy_etc = policy_etc(plays = 2, n_samples = 16),
  policy_kg = policy_kg(n_nodes = 4, n_cand = 20),
  policy_pbgi = policy_pbgi(), policy_pbgi_d = policy_pbgi_d(),
  policy_q1 = policy_q1(), policy_random = policy_random(),
  policy_cmdp_rollout = policy_cmdp_rollout(2, n_samples = 8),
  policy_kg_rollout = policy_kg_rollout(max_horizon = 2, n_nodes = 4,
                                        n_cand = 20),
  # (deprecated: the policy it always made)
  policy_rollout = withCallingHandlers(
    policy_rollout(2, n_samples = 8),
    costbo_warning_deprecated = function(w) invokeRestart("muffleWarning")),
  policy_ts_psq = policy_ts_psq(n_features = 64, n_samples = 16),
  policy_ucb = policy_ucb(),
  policy_ucb_cvs = policy_ucb_cvs(n_samples = 16),
  policy_ucb_psq = policy_ucb_psq(n_samples = 16))

contract_problems <- function() list(
  box = test_problem("branin", cost_family = "linear", budget = 60),
  cvs = test_problem_cvs("gp_sample", cost_set = "moderate", seed = 2,
                         budget = 20),
  miso = test_problem_miso("rosenbrock", budget = 40, seed = 2))

test_that("every exported policy honours the policy contract", {
  skip_on_cran()
  pols <- contract_policies()
  exported <- grep("^policy_", getNamespaceExports("costbo"), value = TRUE)
  expect_setequal(names(pols), exported)
  probs <- contract_problems()
  for (nm in names(pols)) {
    pol <- pols[[nm]]
    expect_s3_class(pol, "bo_policy")
    expect_true(is.character(pol$name) && length(pol$name) == 1L &&
                  nzchar(pol$name), label = nm)
    expect_true(is.character(pol$label) && nzchar(pol$label), label = nm)
    expect_true(is.list(pol$params), label = nm)
    expect_output(print(pol), "Policy:")
    accepted <- 0L
    for (pn in names(probs)) {
      pr <- probs[[pn]]
      s <- tryCatch(bo_session(pr, pol), costbo_error_arg = function(e) e)
      if (inherits(s, "error")) {
        # refused: by an error naming the policy
        expect_identical(s$arg, "policy", label = paste(nm, pn))
        next
      }
      accepted <- accepted + 1L
      run <- function() {
        bo_optimize(pr, pol, n_init = 4, seed = 5, max_evaluations = 2,
                    charge_initial = FALSE, progress = FALSE)
      }
      r1 <- run()
      df <- as.data.frame(r1)
      bo <- df[df$phase == "bo", , drop = FALSE]
      expect_identical(nrow(bo), 2L, label = paste(nm, pn))
      X <- as.matrix(bo[, paste0("x", seq_len(pr$d)), drop = FALSE])
      expect_true(all(sweep(X, 2L, pr$lower, ">=") &
                        sweep(X, 2L, pr$upper, "<=")), label = paste(nm, pn))
      expect_identical(as.data.frame(run())[, c(colnames(X), "value")],
                       df[, c(colnames(X), "value")], label = paste(nm, pn))
      # the acquisition of a session told the run's points: one finite
      # value per point of the domain
      init <- df[, intersect(names(df), c(colnames(X), "source", "value",
                                          "cost"))]
      if (!is.null(pr$control_sets)) next
      s <- bo_session(pr, pol, initial = init)
      Xq <- X
      if (!is.null(pr$source_costs)) Xq <- cbind(X, source = 0)
      a <- bo_acquisition(s, Xq)
      expect_true(is.numeric(a) && length(a) == nrow(Xq) && all(is.finite(a)),
                  label = paste(nm, pn))
    }
    expect_gt(accepted, 0L, label = nm)
  }
})
