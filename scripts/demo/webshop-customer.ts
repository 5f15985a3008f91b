/**
 * Demo step 3: a webshop customer created through the connector's `update`
 * (create_if_not_exists), authenticated with its password, and read back by email
 * (spec, "Webshop connector endpoints").
 */
import type { ConnectorClient } from "../lib/connector-client.ts";
import { ServiceCallError } from "../lib/http-client.ts";

export interface CustomerDemo {
  email: string;
  /** true when the customer did not exist before this run */
  created: boolean;
  customer: any;
  authenticated: any;
  wrongPassword: any;
  userInfo: any;
  problems: string[];
}

/**
 * Creates (or, on a rerun, updates) the demo shopper `email` on chain `chainId`, then
 * authenticates it and reads it back by email.
 */
export async function webshopCustomer(
  connector: ConnectorClient,
  chainId: number,
  email: string,
  password: string,
): Promise<CustomerDemo> {
  const before = await connector.userInfoByEmail(email, chainId).catch((err: unknown) => {
    if (err instanceof ServiceCallError && err.status === 404) return null;
    throw err;
  });
  const customer = await connector.update({
    create_if_not_exists: true,
    service_chain_id: chainId,
    user_info: {
      username: email,
      password,
      first_name: "Sanne",
      last_name: "de Vries",
      birthday: "1990-04-27",
      gender: "female",
      address_streetname: "Stationsplein",
      address_housenumber: "1",
      address_postalcode: "1012 AB",
      address_towncity: "Amsterdam",
      country_code: "NL",
      phone_number: "+31201234567",
      mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: false },
      opt_in_programme: { programme_opted_in: true },
    },
  });
  const authenticated = await connector.authenticate(email, password, chainId);
  const wrongPassword = await connector.authenticate(email, `${password}-wrong`, chainId);
  const userInfo = await connector.userInfoByEmail(email, chainId);

  const problems: string[] = [];
  if (customer?.email !== email) problems.push(`update returned email ${customer?.email}`);
  if (authenticated?.authenticated !== true) problems.push(`authenticate failed: ${authenticated?.message}`);
  if (authenticated?.customer_id !== customer?.id) problems.push(`authenticate gave customer ${authenticated?.customer_id}, update ${customer?.id}`);
  if (wrongPassword?.authenticated !== false) problems.push("a wrong password was accepted");
  if (userInfo?.username !== email) problems.push(`read back username ${userInfo?.username}`);
  if (userInfo?.first_name !== "Sanne" || userInfo?.last_name !== "de Vries") problems.push("read back a different name");
  if (Number(userInfo?.webshop_customer_id) !== customer?.id) problems.push(`read back webshop_customer_id ${userInfo?.webshop_customer_id}`);
  return { email, created: before === null, customer, authenticated, wrongPassword, userInfo, problems };
}
