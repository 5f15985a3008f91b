/**
 * Registers the internal calls (spec, "Internal call: ..."). Each call answers one method; any
 * other method gets code 13 with the name of the method it needs (http/routing.ts). The other
 * spellings of a call's path (either prefix, a `.json` suffix) reach it through the app's routing
 * path (http/routing.ts), so each call is registered once, at its declared path.
 */
import { addBusinessCall } from "@service/shared/internal/add-business";
import { addCampaignCall } from "@service/shared/internal/add-campaign";
import { alterBusinessCall } from "@service/shared/internal/alter-business";
import { alterCampaignCall } from "@service/shared/internal/alter-campaign";
import type { CallDeclaration, CallMethod } from "@service/shared/internal/call";
import { getBusinessesCall } from "@service/shared/internal/get-businesses";
import { getCampaignCall } from "@service/shared/internal/get-campaign";
import { addUserCall } from "@service/shared/internal/add-user";
import { getUserCall } from "@service/shared/internal/get-user";
import { alterUserCall } from "@service/shared/internal/alter-user";
import { addBasketCall } from "@service/shared/internal/add-basket";
import { getBasketPriceCall } from "@service/shared/internal/get-basket-price";
import { applyReferralCodeCall } from "@service/shared/internal/apply-referral-code";
import { alterChainCall } from "@service/shared/internal/alter-chain";
import { verifyPhoneNumberCall } from "@service/shared/internal/verify-phone-number";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../auth/request-context.ts";
import { addBusiness } from "./add-business.ts";
import { addCampaign } from "./add-campaign.ts";
import { alterBusiness } from "./alter-business.ts";
import { alterCampaign } from "./alter-campaign.ts";
import { getBusinesses } from "./get-businesses.ts";
import { getCampaign } from "./get-campaign.ts";
import { deleteCampaignCall } from "@service/shared/internal/delete-campaign";
import { addCampaignGroupCall } from "@service/shared/internal/add-campaign-group";
import { getCampaignGroupsCall } from "@service/shared/internal/get-campaign-groups";
import { deleteCampaignGroupCall } from "@service/shared/internal/delete-campaign-group";
import { addTagCall } from "@service/shared/internal/add-tag";
import { getTagsCall } from "@service/shared/internal/get-tags";
import { deleteTagCall } from "@service/shared/internal/delete-tag";
import { deleteCampaign } from "./delete-campaign.ts";
import { addCampaignGroup } from "./add-campaign-group.ts";
import { getCampaignGroups } from "./get-campaign-groups.ts";
import { deleteCampaignGroup } from "./delete-campaign-group.ts";
import { addTag } from "./add-tag.ts";
import { getTags } from "./get-tags.ts";
import { deleteTag } from "./delete-tag.ts";
import { addUser } from "./add-user.ts";
import { getUser } from "./get-user.ts";
import { alterUser } from "./alter-user.ts";
import { addBasket } from "./add-basket.ts";
import { getBasketPrice } from "./get-basket-price.ts";
import { applyReferralCode } from "./apply-referral-code.ts";
import { alterChain } from "./alter-chain.ts";
import { verifyPhoneNumber } from "./verify-phone-number.ts";

type Handler = (c: Context<AppEnv>) => Promise<Response>;

/**
 * The internal calls: path and method (from the call's shared declaration), handler, declaration
 * (exported for the generated tests and the schema document).
 */
export const CALLS: Array<[path: string, method: CallMethod, handler: Handler, declaration: CallDeclaration]> = (
  [
    [addBusinessCall, addBusiness],
    [alterBusinessCall, alterBusiness],
    [getBusinessesCall, getBusinesses],
    [addCampaignCall, addCampaign],
    [alterCampaignCall, alterCampaign],
    [getCampaignCall, getCampaign],
    [deleteCampaignCall, deleteCampaign],
    [addCampaignGroupCall, addCampaignGroup],
    [getCampaignGroupsCall, getCampaignGroups],
    [deleteCampaignGroupCall, deleteCampaignGroup],
    [addTagCall, addTag],
    [getTagsCall, getTags],
    [deleteTagCall, deleteTag],
    [addUserCall, addUser],
    [getUserCall, getUser],
    [alterUserCall, alterUser],
    [addBasketCall, addBasket],
    [getBasketPriceCall, getBasketPrice],
    [applyReferralCodeCall, applyReferralCode],
    [alterChainCall, alterChain],
    [verifyPhoneNumberCall, verifyPhoneNumber],
  ] as Array<[CallDeclaration, Handler]>
).map(([call, handler]) => [call.path, call.method, handler, call]);

/** Mounts every internal call on `app`, at its declared path and method (GET calls take HEAD too). */
export function registerInternalCalls(app: Hono<AppEnv>): void {
  for (const [path, method, handler] of CALLS) app.on(method, path, handler);
}
