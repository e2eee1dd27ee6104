# Independent reference computations in plain R, used by the tests.

# Unit-outputscale kernels of the scaled distance r.
ref_kernel <- function(kernel, r) {
  switch(kernel,
         matern52 = (1 + sqrt(5) * r + 5 / 3 * r^2) * exp(-sqrt(5) * r),
         matern32 = (1 + sqrt(3) * r) * exp(-sqrt(3) * r),
         se = exp(-r^2 / 2))
}

# Cross-covariance matrix between the rows of A and B (user units).
ref_cov <- function(A, B, kernel, lengthscale, outputscale) {
  A <- sweep(as.matrix(A), 2, lengthscale, "/")
  B <- sweep(as.matrix(B), 2, lengthscale, "/")
  D2 <- outer(rowSums(A^2), rowSums(B^2), "+") - 2 * A %*% t(B)
  outputscale * ref_kernel(kernel, sqrt(pmax(D2, 0)))
}

# Log marginal likelihood by dense solve() and determinant().
ref_loglik <- function(X, y, kernel, lengthscale, outputscale, noise, mean) {
  K <- ref_cov(X, X, kernel, lengthscale, outputscale) +
    diag(noise, nrow(as.matrix(X)))
  r <- y - mean
  -0.5 * sum(r * solve(K, r)) -
    0.5 * as.numeric(determinant(K, logarithm = TRUE)$modulus) -
    0.5 * length(y) * log(2 * pi)
}

# Textbook posterior mean and sd of the latent function.
ref_predict <- function(X, y, Xnew, kernel, lengthscale, outputscale, noise,
                        mean) {
  K <- ref_cov(X, X, kernel, lengthscale, outputscale) +
    diag(noise, nrow(as.matrix(X)))
  Ks <- ref_cov(X, Xnew, kernel, lengthscale, outputscale)
  m <- mean + drop(t(Ks) %*% solve(K, y - mean))
  v <- outputscale - colSums(Ks * solve(K, Ks))
  list(mean = m, sd = sqrt(pmax(v, 0)))
}

# Central finite differences of a scalar function.
ref_grad <- function(f, x, h = 1e-5) {
  vapply(seq_along(x), function(i) {
    e <- replace(numeric(length(x)), i, h)
    (f(x + e) - f(x - e)) / (2 * h)
  }, numeric(1))
}

# Relative difference, elementwise maximum.
rel_err <- function(a, b, floor = 1) max(abs(a - b) / pmax(abs(b), floor))
