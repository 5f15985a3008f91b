/**
 * Every internal call's declaration (and `/auth/login`, `/auth/logout`), in the order the schema
 * document lists them. The core API's routes (core-api/src/internal/routes.ts, app.ts) mount
 * each with its handler.
 */
import { addBusinessCall } from "./add-business.ts";
import { addCampaignCall } from "./add-campaign.ts";
import { alterBusinessCall } from "./alter-business.ts";
import { alterCampaignCall } from "./alter-campaign.ts";
import type { CallDeclaration } from "./call.ts";
import { getBusinessesCall } from "./get-businesses.ts";
import { getCampaignCall } from "./get-campaign.ts";
import { loginCall, logoutCall } from "./login.ts";
import { deleteCampaignCall } from "./delete-campaign.ts";
import { addCampaignGroupCall } from "./add-campaign-group.ts";
import { getCampaignGroupsCall } from "./get-campaign-groups.ts";
import { deleteCampaignGroupCall } from "./delete-campaign-group.ts";
import { addTagCall } from "./add-tag.ts";
import { getTagsCall } from "./get-tags.ts";
import { deleteTagCall } from "./delete-tag.ts";
import { addUserCall } from "./add-user.ts";
import { getUserCall } from "./get-user.ts";
import { alterUserCall } from "./alter-user.ts";
import { addBasketCall } from "./add-basket.ts";
import { getBasketPriceCall } from "./get-basket-price.ts";
import { applyReferralCodeCall } from "./apply-referral-code.ts";
import { alterChainCall } from "./alter-chain.ts";
import { verifyPhoneNumberCall } from "./verify-phone-number.ts";

export const CALL_DECLARATIONS: readonly CallDeclaration[] = [
  loginCall,
  logoutCall,
  addBusinessCall,
  alterBusinessCall,
  getBusinessesCall,
  addCampaignCall,
  alterCampaignCall,
  getCampaignCall,
  deleteCampaignCall,
  addCampaignGroupCall,
  getCampaignGroupsCall,
  deleteCampaignGroupCall,
  addTagCall,
  getTagsCall,
  deleteTagCall,
  addUserCall,
  getUserCall,
  alterUserCall,
  addBasketCall,
  getBasketPriceCall,
  applyReferralCodeCall,
  alterChainCall,
  verifyPhoneNumberCall,
];
