/**
 * The OpenTelemetry semantic conventions the spans follow: the version of `@opentelemetry/semantic-conventions` the
 * project pins (package.json, exactly), recorded on every span's instrumentation scope as its schema URL. A test holds
 * the two equal, so a new package version is a deliberate change of this line.
 */
export const semconvVersion = '1.45.0';
export const semconvSchemaUrl = `https://opentelemetry.io/schemas/${semconvVersion}`;
