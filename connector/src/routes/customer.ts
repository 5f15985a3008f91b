/**
 * The five webshop connector endpoints under `/rest/V1/service/customer/` (spec, "Webshop
 * connector endpoints"), and under `/rest/<store code>/V1/service/customer/` in that store's scope
 * (http/store-code.ts). Routes only validate and delegate; errors are thrown as ConnectorError
 * and rendered by app.ts.
 */
import {
  authenticateRequestSchema, numericId, updateCustomerRequestSchema,
} from "@service/shared/connector";
import type { TrustedProxies } from "@service/shared/node";
import { Router } from "express";
import { z } from "zod";
import { authenticateCustomer, type AuthenticateDeps } from "../customers/authenticate.ts";
import { chainWebsitesOf } from "../http/auth.ts";
import { clientAddressOf } from "../http/client-address.ts";
import { readUserInfoByEmail, readUserInfoById } from "../customers/read-user-info.ts";
import { updateCustomerFromUserInfo } from "../customers/update-customer.ts";
import { pathStoreOf, type PathStore } from "../http/store-code.ts";
import { parseOrThrow } from "../http/validate.ts";

export const CUSTOMER_ROUTE_PREFIX = "/rest/V1/service/customer";
/** The same endpoints with Magento's store code in the path (`default`, `all`, a store view's code). */
export const STORE_CUSTOMER_ROUTE_PREFIX = "/rest/:storeCode/V1/service/customer";

type UpdateRequest = ReturnType<typeof updateCustomerRequestSchema.parse>;

/**
 * The update in the path's store: a new customer goes to that store and its website. A request
 * that names a website_code or store_code of its own is more specific: the path's store is
 * left out then (no store scope).
 */
function inPathStore(body: UpdateRequest, store: PathStore | null): { body: UpdateRequest; store: PathStore | null } {
  if (!store || body.website_code || body.store_code) return { body, store: null };
  return { body: { ...body, website_code: store.websiteCode, store_code: store.code }, store };
}

const customerIdParam = z.object({ customerId: numericId });
const emailParam = z.object({ customerEmail: z.string().trim().min(1).max(255) });
const chainEmailParams = emailParam.extend({ serviceChainId: numericId });

/**
 * Router of the customer endpoints, to mount at {@link CUSTOMER_ROUTE_PREFIX}, behind
 * requireIntegrationToken (http/auth.ts).
 * @param deps.db the customer store
 * @param deps.clock the current time
 * @param deps.trustedProxies TRUSTED_PROXIES (trusted-proxies.ts of @service/shared/node)
 * @param deps.verifyPassword authenticate's password check (default verifyMagentoPassword)
 */
export function customerRoutes(deps: AuthenticateDeps & { trustedProxies: TrustedProxies }): Router {
  const router = Router();
  const { db } = deps;

  router.post("/authenticate", async (req, res) => {
    const body = parseOrThrow(authenticateRequestSchema, req.body);
    // The shopper's address as the platform forwarded it (http/client-address.ts).
    res.json(await authenticateCustomer({ ...deps, store: pathStoreOf(res), chainWebsites: chainWebsitesOf(res) }, body, clientAddressOf(req, res.locals, deps.trustedProxies)));
  });

  router.post("/update", async (req, res) => {
    const { body, store } = inPathStore(parseOrThrow(updateCustomerRequestSchema, req.body), pathStoreOf(res));
    res.json(await updateCustomerFromUserInfo({ ...deps, store, chainWebsites: chainWebsitesOf(res) }, body));
  });

  router.get("/user_info/:customerId", async (req, res) => {
    const { customerId } = parseOrThrow(customerIdParam, req.params);
    res.json(await readUserInfoById(db, customerId));
  });

  router.get("/user_info_by_email/:customerEmail", async (req, res) => {
    const { customerEmail } = parseOrThrow(emailParam, req.params);
    res.json(await readUserInfoByEmail(db, customerEmail, null, pathStoreOf(res)));
  });

  router.get("/user_info_by_email/:serviceChainId/:customerEmail", async (req, res) => {
    const { serviceChainId, customerEmail } = parseOrThrow(chainEmailParams, req.params);
    res.json(await readUserInfoByEmail(db, customerEmail, serviceChainId, pathStoreOf(res)));
  });

  return router;
}
