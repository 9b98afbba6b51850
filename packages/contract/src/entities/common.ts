import { z } from 'zod';

/**
 * Field groups the spec names by a collective word ("references", "cumulative
 * thresholds and durations", "custom templates"). They are plain shapes spread
 * into the entity objects, so every entity spells the fields the same way.
 * Every field of these groups is optional: the spec never lists one as required.
 */

/** "references": primary_reference, secondary_reference, shipping_reference. */
export const referenceFields = {
  primary_reference: z.string().nullable().optional(),
  secondary_reference: z.string().nullable().optional(),
  shipping_reference: z.string().nullable().optional(),
};

/** "thresholds": high_threshold, low_threshold (degrees Celsius). */
export const thresholdFields = {
  high_threshold: z.number().nullable().optional(),
  low_threshold: z.number().nullable().optional(),
};

/**
 * "cumulative thresholds and durations" / "cumulative limits and durations":
 * cumulative_high_threshold, cumulative_low_threshold, cumulative_duration_high,
 * cumulative_duration_low. "Durations are strings" (spec section 3, "Tag start
 * data" and "Product definition"), in the form `[DD ]HH:MM:SS` (domain rules §2).
 */
export const cumulativeFields = {
  cumulative_high_threshold: z.number().nullable().optional(),
  cumulative_low_threshold: z.number().nullable().optional(),
  cumulative_duration_high: z.string().nullable().optional(),
  cumulative_duration_low: z.string().nullable().optional(),
};

/**
 * "custom templates" of the notification settings and log entries (spec section
 * 3, "Product/carrier notification setting"): custom_template_email,
 * custom_template_subject, custom_template_sms, custom_template_attachment.
 */
export const customTemplateFields = {
  custom_template_email: z.string().nullable().optional(),
  custom_template_subject: z.string().nullable().optional(),
  custom_template_sms: z.string().nullable().optional(),
  custom_template_attachment: z.string().nullable().optional(),
};

/**
 * Record, "Parties: shipper_name_address and receiver_name_address (each with
 * id, name)". The short form of a name-and-address location.
 */
export const ZNameAddressRef = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
  })
  .meta({ id: 'NameAddressRef' });
export type TNameAddressRef = z.infer<typeof ZNameAddressRef>;
