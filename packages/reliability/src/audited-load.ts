import { request } from "./http";
import { startLoad, type RunningLoad } from "./load";
import { DEVICE, type User } from "./users";

/**
 * Audited requests: each client rotates its own user's refresh token, one `auth.token.refreshed`
 * event in the gateway's outbox per 200. (A refresh is the cheapest audited request: no password hash.)
 */
export function startRefreshLoad(gatewayUrl: string, users: User[], limit = Infinity): RunningLoad {
  const refreshTokens = users.map((user) => user.refreshToken);
  return startLoad(
    users.length,
    async (client) => {
      const answer = await request(gatewayUrl, "POST", "/api/v1/auth/refresh", { body: { refresh_token: refreshTokens[client], device: DEVICE } });
      if (answer.status === 200) refreshTokens[client] = answer.body.refresh_token;
      return answer;
    },
    limit,
  );
}
