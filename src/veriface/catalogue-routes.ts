import Joi from 'joi';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { DOCUMENTS_CATALOGUE, isSupportedCountry, PASSPORT } from './documents-catalogue.js';

interface CatalogueQuery {
  country?: string;
}

const supportedCountry = (value: string, helpers: Joi.CustomHelpers) => (isSupportedCountry(value) ? value : helpers.error('country.unsupported'));

const catalogueQuery = Joi.object<CatalogueQuery, true>({
  country: Joi.string()
    .uppercase()
    .custom(supportedCountry)
    .description('ISO 3166-1 alpha-2 code; a country with no national documents listed answers an empty data'),
}).messages({ 'country.unsupported': '{{#label}} must be a supported country code' });

const localizedName = Joi.object({ en: Joi.string().required(), es: Joi.string().required() });

const catalogueResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        country: Joi.string().length(2).required(),
        name: localizedName.required(),
        documents: Joi.array()
          .items(Joi.object({ type: Joi.string().required(), name: localizedName.required() }))
          .required(),
      }),
    )
    .required(),
  passport: Joi.object({
    type: Joi.string().valid(PASSPORT.type).required(),
    countries: Joi.string().valid('any').required().description('a passport is accepted from every ISO 3166-1 country'),
  }).required(),
});

/** What integrators read: names and codes only; the number patterns stay internal. */
function publishedCatalogue(country: string | undefined) {
  const countries = DOCUMENTS_CATALOGUE.filter((entry) => country === undefined || entry.country === country);
  return {
    data: countries.map((entry) => ({
      country: entry.country,
      name: entry.name,
      documents: entry.documents.map((document) => ({ type: document.type, name: document.name })),
    })),
    passport: { type: PASSPORT.type, countries: 'any' },
  };
}

export function catalogueRoutes(): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/veriface/documents',
      access: 'any-key',
      publicKey: "the same answer: the catalogue holds nobody's data.",
      tag: 'face validation',
      summary: 'The countries and document types accepted for identity validation',
      description: 'National documents per country; PASSPORT is accepted with any ISO 3166-1 alpha-2 country code.',
      body: noInput,
      query: catalogueQuery,
      response: { json: catalogueResponse },
      errors: [],
      handler: ({ query }) => publishedCatalogue(query.country),
    }),
  ];
}
