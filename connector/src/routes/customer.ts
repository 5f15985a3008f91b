/**
 * The five webshop connector endpoints under `/rest/V1/service/customer/` (spec, "Webshop
 * connector endpoints"). Routes only validate and delegate; errors are thrown as ConnectorError
 * and rendered by app.ts.
 */
import {
  authenticateRequestSchema, numericId, updateCustomerRequestSchema,
} from "@service/shared/connector";
import { Router } from "express";
import { z } from "zod";
import type { BlockList } from "node:net";
import { authenticateCustomer, type AuthenticateDeps } from "../customers/authenticate.ts";
import { clientAddressOf } from "../http/client-address.ts";
import { readUserInfoByEmail, readUserInfoById } from "../customers/read-user-info.ts";
import { updateCustomerFromUserInfo } from "../customers/update-customer.ts";
import { parseOrThrow } from "../http/validate.ts";

export const CUSTOMER_ROUTE_PREFIX = "/rest/V1/service/customer";

const customerIdParam = z.object({ customerId: numericId });
const emailParam = z.object({ customerEmail: z.string().trim().min(1).max(255) });
const chainEmailParams = emailParam.extend({ serviceChainId: numericId });

/**
 * Router of the customer endpoints, to mount at {@link CUSTOMER_ROUTE_PREFIX}, behind
 * requireIntegrationToken (http/auth.ts).
 * @param deps.db the customer store
 * @param deps.clock the current time
 * @param deps.trustedProxies TRUSTED_PROXIES (http/trusted-proxies.ts)
 * @param deps.verifyPassword authenticate's password check (default verifyMagentoPassword)
 */
export function customerRoutes(deps: AuthenticateDeps & { trustedProxies: BlockList }): Router {
  const router = Router();
  const { db } = deps;

  router.post("/authenticate", async (req, res) => {
    const body = parseOrThrow(authenticateRequestSchema, req.body);
    // The shopper's address as the platform forwarded it (http/client-address.ts).
    res.json(await authenticateCustomer(deps, body, clientAddressOf(req, res.locals, deps.trustedProxies)));
  });

  router.post("/update", async (req, res) => {
    const body = parseOrThrow(updateCustomerRequestSchema, req.body);
    res.json(await updateCustomerFromUserInfo(deps, body));
  });

  router.get("/user_info/:customerId", async (req, res) => {
    const { customerId } = parseOrThrow(customerIdParam, req.params);
    res.json(await readUserInfoById(db, customerId));
  });

  router.get("/user_info_by_email/:customerEmail", async (req, res) => {
    const { customerEmail } = parseOrThrow(emailParam, req.params);
    res.json(await readUserInfoByEmail(db, customerEmail, null));
  });

  router.get("/user_info_by_email/:serviceChainId/:customerEmail", async (req, res) => {
    const { serviceChainId, customerEmail } = parseOrThrow(chainEmailParams, req.params);
    res.json(await readUserInfoByEmail(db, customerEmail, serviceChainId));
  });

  return router;
}
