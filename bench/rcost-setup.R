## Shared by bench/rcost.R and bench/rcost-calls.R: the two problems, the
## cost 1 + 20 mean(u) as an R closure with or without a "gradient"
## attribute, the policies, the state a proposal starts from, and the CPU
## timer.  Sourced from the repository root.

branin01 <- function(x) {
  z <- c(15 * x[1] - 5, 15 * x[2])
  -((z[2] - 5.1 / (4 * pi^2) * z[1]^2 + 5 / pi * z[1] - 6)^2 +
      10 * (1 - 1 / (8 * pi)) * cos(z[1]) + 10)
}
hartmann6 <- function(x) {
  A <- matrix(c(10, 3, 17, 3.5, 1.7, 8, 0.05, 10, 17, 0.1, 8, 14,
                3, 3.5, 1.7, 10, 17, 8, 17, 8, 0.05, 10, 0.1, 14), 4,
              byrow = TRUE)
  P <- 1e-4 * matrix(c(1312, 1696, 5569, 124, 8283, 5886,
                       2329, 4135, 8307, 3736, 1004, 9991,
                       2348, 1451, 3522, 2883, 3047, 6650,
                       4047, 8828, 8732, 5743, 1091, 381), 4, byrow = TRUE)
  alpha <- c(1, 1.2, 3, 3.2)
  sum(alpha * exp(-rowSums(A * sweep(P, 2L, x)^2)))
}
problems <- list(branin2 = list(f = branin01, d = 2L),
                 hartmann6 = list(f = hartmann6, d = 6L))

cost_r <- function(grad) {
  force(grad)
  function(x) {
    v <- 1 + 20 * sum(x) / length(x)
    if (grad) attr(v, "gradient") <- rep(20 / length(x), length(x))
    v
  }
}

policies <- list(
  "EI-PU" = function() policy_ei_pu(),
  "B-MS-EI path (3 steps)" = function() policy_bmsei(steps = 3, path = TRUE),
  "B-MS-EI tree (2 steps, 4 fantasies)" =
    function() policy_bmsei(steps = 2, fantasies = 4),
  "CMDP rollout (h = 2, 16 samples)" =
    function() policy_rollout(horizon = 2, n_samples = 16),
  "KG" = function() policy_kg(),
  "rolling horizon (h <= 3)" =
    function() policy_rollout(horizon = "adaptive", max_horizon = 3,
                              n_nodes = 5, n_cand = 50)
)

state_for <- function(pb, policy, n = 20L, seed = 1L) {
  set.seed(seed)
  d <- pb$d
  X <- matrix(runif(n * d), n)
  init <- as.data.frame(X)
  names(init) <- paste0("x", seq_len(d))
  init$value <- apply(X, 1L, pb$f)
  prob <- bo_problem(pb$f, lower = rep(0, d), upper = rep(1, d),
                     cost = cost_linear(rep(0, d), rep(1, d), 1, 20),
                     budget = 200)
  st <- costbo:::state_fit(bo_session(prob, policy, initial = init))
  st$memory <- costbo:::policy_init(policy, st)
  st
}

# CPU seconds of one call of f(), repeated until 0.2 s have passed.
cpu <- function(f) {
  t0 <- proc.time()
  k <- 0L
  repeat {
    f()
    k <- k + 1L
    t1 <- proc.time() - t0
    el <- t1[["user.self"]] + t1[["sys.self"]]
    if (el >= 0.2) return(el / k)
  }
}

