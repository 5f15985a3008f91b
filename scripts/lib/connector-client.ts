/**
 * A client for the webshop connector's customer endpoints (spec, "Webshop connector endpoints"),
 * authenticated with the integration token (handbook: `Authorization: Bearer <token>`).
 * Answers are Magento REST shapes: the object itself on success, `{message, parameters}` on error.
 */
import { fetchJson, ServiceCallError } from "./http-client.ts";

const PREFIX = "/rest/V1/service/customer";

/** The connector seen through HTTP. */
export class ConnectorClient {
  readonly baseUrl: string;
  private readonly token: string;

  /**
   * @param baseUrl e.g. `http://127.0.0.1:8081` (no trailing slash)
   * @param token the integration token (SEED_INTEGRATION_TOKEN)
   */
  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  /**
   * `POST .../update`: creates or updates the webshop customer described by `userInfo`.
   * @returns the webshop customer object
   * @throws ServiceCallError on a non-200 answer
   */
  async update(body: {
    user_info: Record<string, unknown>;
    create_if_not_exists?: boolean;
    service_chain_id?: number;
    website_code?: string;
    store_code?: string;
  }): Promise<any> {
    return this.send("POST", `${PREFIX}/update`, body);
  }

  /**
   * `POST .../authenticate` with a customer's email and password.
   * @returns `{authenticated, customer_id, message, website_code, store_code}` (a wrong password
   *   is `authenticated: false`, not an error)
   */
  async authenticate(email: string, password: string, serviceChainId?: number): Promise<any> {
    return this.send("POST", `${PREFIX}/authenticate`, { email, password, service_chain_id: serviceChainId });
  }

  /**
   * `GET .../user_info_by_email/[:serviceChainId/]:email`.
   * @returns the user info object
   */
  async userInfoByEmail(email: string, serviceChainId?: number): Promise<any> {
    const chain = serviceChainId === undefined ? "" : `${serviceChainId}/`;
    return this.send("GET", `${PREFIX}/user_info_by_email/${chain}${encodeURIComponent(email)}`);
  }

  /** `GET .../user_info/:customerId`. */
  async userInfo(customerId: number): Promise<any> {
    return this.send("GET", `${PREFIX}/user_info/${customerId}`);
  }

  private async send(method: "GET" | "POST", path: string, body?: unknown): Promise<any> {
    const url = `${this.baseUrl}${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetchJson(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status !== 200) throw new ServiceCallError(method, url, res.status, res.body);
    return res.body;
  }
}
