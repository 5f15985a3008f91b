-- The currencies chains and vouchers refer to (ISO 4217), present in every database.
INSERT INTO `currencies` (`code`, `name`) VALUES
  ('EUR', 'Euro'), ('USD', 'US Dollar'), ('GBP', 'Pound Sterling'), ('CHF', 'Swiss Franc'),
  ('SEK', 'Swedish Krona'), ('NOK', 'Norwegian Krone'), ('DKK', 'Danish Krone'), ('PLN', 'Polish Zloty'),
  ('CZK', 'Czech Koruna'), ('HUF', 'Hungarian Forint'), ('RON', 'Romanian Leu'), ('CAD', 'Canadian Dollar'),
  ('AUD', 'Australian Dollar'), ('NZD', 'New Zealand Dollar'), ('JPY', 'Yen'), ('CNY', 'Yuan Renminbi'),
  ('INR', 'Indian Rupee'), ('BRL', 'Brazilian Real'), ('MXN', 'Mexican Peso'), ('ZAR', 'Rand'),
  ('SGD', 'Singapore Dollar'), ('HKD', 'Hong Kong Dollar'), ('TRY', 'Turkish Lira'), ('AED', 'UAE Dirham');
