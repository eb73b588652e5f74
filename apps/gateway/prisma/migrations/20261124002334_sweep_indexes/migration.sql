-- CreateIndex
CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "login_throttles_last_failure_at_idx" ON "login_throttles"("last_failure_at");

-- CreateIndex
CREATE INDEX "sso_flows_expires_at_idx" ON "sso_flows"("expires_at");

-- CreateIndex
CREATE INDEX "sso_tickets_expires_at_idx" ON "sso_tickets"("expires_at");
